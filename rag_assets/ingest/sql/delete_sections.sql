DELETE FROM sections WHERE document_id = %s
