-- The text of page spans (document, first page, offset on it, last page, offset on it, exclusive), built as
-- page fragments in page order, joined in Python by sentences.join_pages as chunk bodies are.
WITH span AS (
  SELECT * FROM unnest(%(keys)s::text[], %(documents)s::text[], %(page_starts)s::int[], %(char_starts)s::int[],
                       %(page_ends)s::int[], %(char_ends)s::int[])
    AS t(key, document_id, page_start, char_start, page_end, char_end)
)
SELECT span.key,
       array_agg(CASE
           WHEN p.page_index = span.page_start AND p.page_index = span.page_end
             THEN substr(p.text, span.char_start + 1, span.char_end - span.char_start)
           WHEN p.page_index = span.page_start THEN substr(p.text, span.char_start + 1)
           WHEN p.page_index = span.page_end THEN substr(p.text, 1, span.char_end)
           ELSE p.text END ORDER BY p.page_index) AS fragments
FROM span
JOIN pages p ON p.document_id = span.document_id AND p.page_index BETWEEN span.page_start AND span.page_end
GROUP BY span.key
