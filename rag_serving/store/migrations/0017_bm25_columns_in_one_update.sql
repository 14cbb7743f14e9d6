-- A chunk's BM25 length and candidate vector written by one UPDATE instead of two (issue #15). Every UPDATE of a
-- chunk writes a new row version into every index on the table, both HNSW graphs included, because bm25_vector is
-- indexed and no such update can be HOT; the separate length pass cost each published chunk one more graph insert.
-- Lengths are counted as set_bm25_lengths counted them (a lexeme's positions, 1 for a stripped one); vectors are
-- weighted as migration 0016's set_bm25_vectors weighted them, now with the lengths of this same statement for the
-- average when nothing of the organization is live yet. A chunk with no words gets length 0 and no vector.
CREATE FUNCTION set_bm25_columns(document_ids text[]) RETURNS void
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
WHERE c.id = l.id
$$;

DROP FUNCTION set_bm25_vectors(text[]);
