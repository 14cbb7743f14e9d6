INSERT INTO chunk_sentence_vectors (chunk_id, model, organization_id, rooftop_id, body_sha256, sentences, dim, vectors)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s)
ON CONFLICT DO NOTHING
