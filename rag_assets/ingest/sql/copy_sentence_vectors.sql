-- An unchanged chunk body of the same tenant (e.g. the live version being replaced) keeps its sentence vectors.
INSERT INTO chunk_sentence_vectors (chunk_id, model, organization_id, rooftop_id, body_sha256, sentences, dim, vectors)
SELECT DISTINCT ON (c.id) c.id, v.model, c.organization_id, c.rooftop_id, c.body_sha256, v.sentences, v.dim, v.vectors
FROM chunks c
JOIN chunk_sentence_vectors v ON v.organization_id = c.organization_id AND v.rooftop_id = c.rooftop_id
  AND v.body_sha256 = c.body_sha256 AND v.model = %(model)s
WHERE c.document_id = %(document)s
  AND NOT EXISTS (SELECT 1 FROM chunk_sentence_vectors w WHERE w.chunk_id = c.id AND w.model = %(model)s)
ORDER BY c.id
ON CONFLICT DO NOTHING
