-- Embedding models of the live documents the tenant may see: a query must embed with the same one.
SELECT DISTINCT embedding_model FROM documents WHERE status = 'live' AND embedding_model IS NOT NULL
