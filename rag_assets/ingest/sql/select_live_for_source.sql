SELECT id, sha256, pipeline_digest, title FROM documents
WHERE organization_id = %s AND rooftop_id = %s AND source_path = %s AND status = 'live'
