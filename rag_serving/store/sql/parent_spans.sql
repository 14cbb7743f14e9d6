-- For each hit chunk: its section's span and size, and the span of the window of its neighbouring chunks
-- (ordinal ± %(neighbours)s in the same document), for hits whose section is missing or too long.
SELECT c.id AS chunk_id, c.document_id, c.section_id, s.heading_path, s.token_count AS section_tokens,
       s.page_start AS s_page_start, s.char_start AS s_char_start, s.page_end AS s_page_end, s.char_end AS s_char_end,
       w.page_start AS w_page_start, w.char_start AS w_char_start, w.page_end AS w_page_end, w.char_end AS w_char_end
FROM chunks c
LEFT JOIN sections s ON s.id = c.section_id
CROSS JOIN LATERAL (
  SELECT (array_agg(n.page_start ORDER BY n.ordinal))[1] AS page_start,
         (array_agg(n.char_start ORDER BY n.ordinal))[1] AS char_start,
         (array_agg(n.page_end ORDER BY n.ordinal DESC))[1] AS page_end,
         (array_agg(n.char_end ORDER BY n.ordinal DESC))[1] AS char_end
  FROM chunks n
  WHERE n.organization_id = c.organization_id AND n.document_id = c.document_id
    AND n.ordinal BETWEEN c.ordinal - %(neighbours)s AND c.ordinal + %(neighbours)s
) AS w
WHERE c.organization_id = %(organization)s AND c.id = ANY(%(ids)s)
