-- set_bm25_columns joins a chunk by its partition key too (migration 0018): by id alone, the update of one document's
-- chunks could not use any partition's primary key (organization_id, id) as an equality and the planner would read
-- each of the 32 partitions. The body is 0017's otherwise.
CREATE OR REPLACE FUNCTION set_bm25_columns(document_ids text[]) RETURNS void
LANGUAGE sql AS $$
WITH chunk_lengths AS (
  SELECT c.id, c.organization_id,
         (SELECT coalesce(sum(coalesce(array_length(t.positions, 1), 1)), 0) FROM unnest(c.tsv) AS t) AS length
  FROM chunks c WHERE c.document_id = ANY(document_ids)
),
lengths AS (
  SELECT l.organization_id, greatest(coalesce(
    (SELECT sum(s.total_length)::float8 / nullif(sum(s.chunks), 0) FROM bm25_stats s
     WHERE s.organization_id = l.organization_id),
    avg(l.length)::float8), 1) AS avgdl
  FROM chunk_lengths l
  GROUP BY l.organization_id
),
weights AS (
  SELECT p.chunk_id, bm25_term_id(p.term) AS dim, sum(bm25_tf(p.tf, p.length, l.avgdl, 1.2, 0.75))::real AS w
  FROM chunk_terms p JOIN lengths l ON l.organization_id = p.organization_id
  WHERE p.document_id = ANY(document_ids)
  GROUP BY p.chunk_id, bm25_term_id(p.term)
),
kept AS (
  SELECT chunk_id, dim, w FROM (
    SELECT *, row_number() OVER (PARTITION BY chunk_id ORDER BY w DESC, dim) AS n FROM weights) AS ranked
  WHERE n <= 1000
),
vectors AS (
  SELECT chunk_id, ('{' || string_agg(dim || ':' || w, ',' ORDER BY dim) || '}/1000000000')::sparsevec AS vector
  FROM kept GROUP BY chunk_id
)
UPDATE chunks c SET bm25_length = l.length, bm25_vector = v.vector
FROM chunk_lengths l LEFT JOIN vectors v ON v.chunk_id = l.id
WHERE c.organization_id = l.organization_id AND c.id = l.id
$$;
