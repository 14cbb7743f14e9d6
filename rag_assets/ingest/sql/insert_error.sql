INSERT INTO ingest_errors (organization_id, rooftop_id, document_id, source_path, sha256, stage,
                           severity, error_class, message, page_index, run_id)
VALUES (%(organization_id)s, %(rooftop_id)s, %(document_id)s, %(source_path)s, %(sha256)s, %(stage)s,
        %(severity)s, %(error_class)s, %(message)s, %(page_index)s, %(run_id)s)
