-- Live documents with their section, chunk, OCR and unreadable page counts (operator view, owner role).
SELECT d.organization_id, d.rooftop_id, d.source_path, d.title, d.kind, d.published_on, d.page_count,
       d.sha256, d.status, d.ingested_at,
       (SELECT count(*) FROM sections s WHERE s.document_id = d.id) AS sections,
       (SELECT count(*) FROM chunks c WHERE c.document_id = d.id) AS chunks,
       (SELECT count(*) FROM pages p WHERE p.document_id = d.id AND p.ocr) AS ocr_pages,
       (SELECT count(*) FROM pages p WHERE p.document_id = d.id AND p.unreadable) AS unreadable_pages
FROM documents d
WHERE d.status = 'live'
  AND (%(org)s::text IS NULL OR d.organization_id = %(org)s)
  AND (%(rooftop)s::text IS NULL OR d.rooftop_id = %(rooftop)s)
ORDER BY d.organization_id, d.rooftop_id, d.source_path
