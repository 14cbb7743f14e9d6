SELECT * FROM documents WHERE sha256 = %s AND status = 'live' ORDER BY id
