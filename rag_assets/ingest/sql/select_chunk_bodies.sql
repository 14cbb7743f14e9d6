SELECT id, body, body_sha256, organization_id, rooftop_id FROM chunks WHERE document_id = %s ORDER BY ordinal
