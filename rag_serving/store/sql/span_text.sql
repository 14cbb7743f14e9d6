-- The text of page spans (document, first page, offset on it, last page, offset on it, exclusive), built as
-- chunk bodies are: each page's fragment trimmed, empty ones dropped, joined by a space.
WITH span AS (
  SELECT * FROM unnest(%(keys)s::text[], %(documents)s::text[], %(page_starts)s::int[], %(char_starts)s::int[],
                       %(page_ends)s::int[], %(char_ends)s::int[])
    AS t(key, document_id, page_start, char_start, page_end, char_end)
)
SELECT span.key,
       string_agg(nullif(btrim(CASE
           WHEN p.page_index = span.page_start AND p.page_index = span.page_end
             THEN substr(p.text, span.char_start + 1, span.char_end - span.char_start)
           WHEN p.page_index = span.page_start THEN substr(p.text, span.char_start + 1)
           WHEN p.page_index = span.page_end THEN substr(p.text, 1, span.char_end)
           ELSE p.text END, E' \n\r\t'), ''), ' ' ORDER BY p.page_index) AS body
FROM span
JOIN pages p ON p.document_id = span.document_id AND p.page_index BETWEEN span.page_start AND span.page_end
GROUP BY span.key
