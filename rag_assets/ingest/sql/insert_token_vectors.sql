INSERT INTO chunk_token_vectors (chunk_id, model, organization_id, rooftop_id, body_sha256, tokens, dim, vectors, scales)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)
ON CONFLICT DO NOTHING
