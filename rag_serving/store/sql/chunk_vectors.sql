-- Stored vectors of the given chunks (for maximal marginal relevance).
SELECT id, embedding FROM chunks WHERE organization_id = %(organization)s AND id = ANY(%(ids)s)
