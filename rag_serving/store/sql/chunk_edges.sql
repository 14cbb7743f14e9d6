-- For each chunk: up to %(reach)s characters of its first page's text before it and of its last page's text after
-- it, to finish the sentences its window cut (answer/edges.py). Never across a page break, so a widened chunk keeps
-- its pages. Row-level security scopes both tables.
SELECT c.id AS chunk_id,
       substr(ps.text, greatest(c.char_start - %(reach)s, 0) + 1, c.char_start - greatest(c.char_start - %(reach)s, 0))
         AS before,
       substr(pe.text, c.char_end + 1, %(reach)s) AS after
FROM chunks c
JOIN pages ps ON ps.document_id = c.document_id AND ps.page_index = c.page_start
JOIN pages pe ON pe.document_id = c.document_id AND pe.page_index = c.page_end
WHERE c.id = ANY(%(ids)s)
