SELECT id, body FROM chunks WHERE document_id = %s ORDER BY ordinal
