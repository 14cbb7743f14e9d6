INSERT INTO files (sha256, size_bytes, content) VALUES (%s, %s, %s)
ON CONFLICT (sha256) DO NOTHING
