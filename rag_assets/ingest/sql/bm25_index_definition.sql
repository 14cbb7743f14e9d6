-- The BM25 candidates' HNSW index as it was created (migration 0016), to build again after a bulk load, and how many
-- chunks the table holds now.
SELECT pg_get_indexdef(i.indexrelid) AS ddl, (SELECT count(*) FROM chunks) AS chunks
FROM pg_index i
WHERE i.indexrelid = to_regclass('chunks_bm25_hnsw')
