-- Stored unit vectors of the given chunks' quotable sentences, for the answer step.
SELECT chunk_id, sentences, dim, vectors FROM chunk_sentence_vectors
WHERE model = %(model)s AND chunk_id = ANY(%(ids)s)
