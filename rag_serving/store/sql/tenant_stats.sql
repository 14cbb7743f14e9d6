-- What the tenant has live (row-level security scopes every count) and which models embedded it.
SELECT (SELECT count(*) FROM documents WHERE status = 'live') AS documents,
       (SELECT count(*) FROM pages p JOIN documents d ON d.id = p.document_id WHERE d.status = 'live') AS pages,
       (SELECT count(*) FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.status = 'live') AS chunks,
       (SELECT array_agg(DISTINCT embedding_model) FROM documents WHERE status = 'live') AS models
