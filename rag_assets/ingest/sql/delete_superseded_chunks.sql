DELETE FROM chunks WHERE document_id = ANY(%s)
