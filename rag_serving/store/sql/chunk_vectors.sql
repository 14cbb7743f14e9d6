-- Stored vectors of the given chunks (for maximal marginal relevance).
SELECT id, embedding FROM chunks WHERE id = ANY(%(ids)s)
