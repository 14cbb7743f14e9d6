-- A new vector for the cache; a concurrent writer of the same text wins, the vectors are equal.
INSERT INTO embedding_cache (model, text_sha256, embedding) VALUES (%s, %s, %s)
ON CONFLICT (model, text_sha256) DO NOTHING
