SELECT * FROM documents WHERE sha256 = %s AND status IN ('building', 'live') ORDER BY id
