-- The source paths the session's tenant has live (row-level security scopes the rows).
SELECT DISTINCT source_path FROM documents WHERE status = 'live'
