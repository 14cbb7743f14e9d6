-- The latest ingest errors and warnings, optionally of one document.
SELECT occurred_at, organization_id, rooftop_id, source_path, stage, severity, error_class, message, page_index
FROM ingest_errors
WHERE (%(document_id)s::text IS NULL OR document_id = %(document_id)s)
ORDER BY id DESC
LIMIT %(limit)s
