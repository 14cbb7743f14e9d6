-- What one ingest run recorded against one file: errors and warnings, oldest first.
SELECT organization_id, rooftop_id, source_path, stage, severity, error_class, message, page_index
FROM ingest_errors WHERE sha256 = %s AND run_id = %s ORDER BY id
