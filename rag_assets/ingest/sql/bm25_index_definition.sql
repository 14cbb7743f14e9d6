-- The BM25 candidates' HNSW index as it was created (migration 0016), to build again after a bulk load, and how many
-- chunks the table holds now. On the partitioned table (migration 0018) the definition reads "ON ONLY", which would
-- build the parent's index alone and leave it invalid; without ONLY every partition gets its graph.
SELECT replace(pg_get_indexdef(i.indexrelid), ' ON ONLY ', ' ON ') AS ddl, (SELECT count(*) FROM chunks) AS chunks
FROM pg_index i
WHERE i.indexrelid = to_regclass('chunks_bm25_hnsw')
