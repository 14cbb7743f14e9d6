-- Live documents, pages, sections and chunks per tenant.
SELECT d.organization_id, d.rooftop_id,
       count(*) AS documents,
       coalesce(sum(d.page_count), 0) AS pages,
       coalesce(sum((SELECT count(*) FROM sections s WHERE s.document_id = d.id)), 0) AS sections,
       coalesce(sum((SELECT count(*) FROM chunks c WHERE c.document_id = d.id)), 0) AS chunks
FROM documents d
WHERE d.status = 'live'
GROUP BY d.organization_id, d.rooftop_id
ORDER BY d.organization_id, d.rooftop_id
