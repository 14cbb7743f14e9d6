SELECT content FROM files WHERE sha256 = %s
