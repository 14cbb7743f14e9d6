-- Hybrid: both legs and Reciprocal Rank Fusion (k = %(rrf_k)s) in one statement.
WITH dense AS MATERIALIZED (
{dense}
),
sparse AS MATERIALIZED (
{sparse}
)
SELECT coalesce(dense.id, sparse.id) AS id,
       (coalesce(1.0 / (%(rrf_k)s + dense.rank), 0) + coalesce(1.0 / (%(rrf_k)s + sparse.rank), 0))::float8 AS score,
       dense.rank AS dense_rank, sparse.rank AS sparse_rank,
       dense.score::float8 AS dense_score, sparse.score::float8 AS sparse_score
FROM dense FULL OUTER JOIN sparse ON sparse.id = dense.id
-- Mirrored rank pairs ((1, 3) and (3, 1)) tie exactly; break ties by the best rank, then the dense rank,
-- and only then by id, which is a content hash that changes with every re-ingest.
ORDER BY score DESC, least(dense.rank, sparse.rank), dense.rank NULLS LAST, id
LIMIT %(k)s
