-- One statement for all postings of the versions being retired: deleting their chunks would cascade to the postings
-- one chunk at a time, and term_stats' trigger would run once per chunk.
DELETE FROM chunk_terms WHERE document_id = ANY(%s)
