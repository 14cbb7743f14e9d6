-- The sparse leg's ranked rows (search/bm25.py), passed back in for fusion with the dense leg (hybrid.sql), with their
-- own ranks: tied chunks share one.
SELECT s.id, s.score, s.rank
FROM unnest(%(sparse_ids)s::text[], %(sparse_scores)s::float8[], %(sparse_ranks)s::int8[]) AS s(id, score, rank)
