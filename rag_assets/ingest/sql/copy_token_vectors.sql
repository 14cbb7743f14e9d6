-- An unchanged chunk body of the same tenant (e.g. the live version being replaced) keeps its vectors.
INSERT INTO chunk_token_vectors (chunk_id, model, organization_id, rooftop_id, body_sha256, tokens, dim, vectors, scales)
SELECT DISTINCT ON (c.id) c.id, v.model, c.organization_id, c.rooftop_id, c.body_sha256, v.tokens, v.dim, v.vectors, v.scales
FROM chunks c
JOIN chunk_token_vectors v ON v.organization_id = c.organization_id AND v.rooftop_id = c.rooftop_id
  AND v.body_sha256 = c.body_sha256 AND v.model = %(model)s
WHERE c.document_id = %(document)s
  AND NOT EXISTS (SELECT 1 FROM chunk_token_vectors w WHERE w.chunk_id = c.id AND w.model = %(model)s)
ORDER BY c.id
ON CONFLICT DO NOTHING
