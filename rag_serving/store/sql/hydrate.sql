-- What a caller needs to show and cite a hit.
SELECT c.id, c.document_id, d.title, d.source_path, c.kind, c.published_on, c.page_start, c.page_end,
       c.page_label_start, c.page_label_end, c.body, c.token_count, s.heading_path, c.ordinal, c.section_id
FROM chunks c
JOIN documents d ON d.id = c.document_id
LEFT JOIN sections s ON s.id = c.section_id
WHERE c.organization_id = %(organization)s AND c.id = ANY(%(ids)s)
