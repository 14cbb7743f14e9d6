SELECT * FROM documents WHERE id = %s
