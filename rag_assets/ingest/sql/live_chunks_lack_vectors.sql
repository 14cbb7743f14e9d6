-- Whether any live chunk lacks the token or sentence vectors of the model that embedded it: only then does a backfill
-- need the encoder loaded (an unchanged re-ingest otherwise spends a second loading it for nothing). Token vectors
-- count only when the configured embedder makes them (%(tokens)s).
SELECT EXISTS (
  SELECT 1 FROM chunks c JOIN documents d ON d.id = c.document_id
  WHERE d.status = 'live' AND c.embedding_model IS NOT NULL
    AND ((%(tokens)s AND NOT EXISTS (SELECT 1 FROM chunk_token_vectors v
                                      WHERE v.chunk_id = c.id AND v.model = c.embedding_model))
      OR NOT EXISTS (SELECT 1 FROM chunk_sentence_vectors v WHERE v.chunk_id = c.id AND v.model = c.embedding_model))
) AS lacking
