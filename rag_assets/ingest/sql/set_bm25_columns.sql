-- These documents' chunk lengths and the sparse leg's candidate vectors, from their postings, in one UPDATE
-- (migration 0017).
SELECT set_bm25_columns(%s::text[])
