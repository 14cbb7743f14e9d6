SELECT c.id, c.body, c.body_sha256, c.organization_id, c.rooftop_id FROM chunks c
WHERE c.document_id = %(document)s
  AND NOT EXISTS (SELECT 1 FROM chunk_sentence_vectors v WHERE v.chunk_id = c.id AND v.model = %(model)s)
ORDER BY c.ordinal
