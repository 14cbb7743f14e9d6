-- Stored per-token vectors (int8 with a float16 scale per token) of the given chunks, for late interaction.
SELECT chunk_id, tokens, dim, vectors, scales FROM chunk_token_vectors
WHERE model = %(model)s AND chunk_id = ANY(%(ids)s)
