-- The live files a chunk sweep rebuilds elsewhere, with what registration needs to give them the same identity
-- (tenant, source path, title, kind, publication date); an empty list of source paths means every live file.
SELECT d.organization_id, d.rooftop_id, d.source_path, d.title, d.kind, d.published_on, f.content
FROM documents d JOIN files f ON f.sha256 = d.sha256
WHERE d.status = 'live' AND (cardinality(%(sources)s::text[]) = 0 OR d.source_path = ANY(%(sources)s::text[]))
ORDER BY d.organization_id, d.rooftop_id, d.source_path
