-- The sparse leg's candidate vectors for these documents' chunks, from their postings (migration 0016).
SELECT set_bm25_vectors(%s::text[])
