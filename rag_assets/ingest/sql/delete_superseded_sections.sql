DELETE FROM sections WHERE document_id = ANY(%s)
