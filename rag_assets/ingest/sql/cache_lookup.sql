-- Cached vectors by model and the SHA-256 of the normalized text.
SELECT text_sha256, embedding FROM embedding_cache WHERE model = %s AND text_sha256 = ANY(%s)
