SELECT * FROM documents WHERE sha256 = %s AND status IN ('building', 'failed') ORDER BY id
