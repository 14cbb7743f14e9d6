DELETE FROM chunks WHERE document_id = %s
