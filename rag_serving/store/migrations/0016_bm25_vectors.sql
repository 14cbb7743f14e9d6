-- Each chunk's BM25 tf parts as a sparse vector under an HNSW index (issue #15): for a tenant whose question words
-- have many postings, the sparse leg takes its candidates from this index and the rarest words' postings, then scores
-- them exactly from chunk_terms (bm25_ann.sql). The inner product with a question's vector of qtf · idf weights is the
-- chunk's BM25 score, up to the average length and k1, b frozen when the chunk was written; the final scores never
-- use these weights, only the choice of candidates does.

-- A word's dimension: a hash, not a dictionary, so no table lists every tenant's vocabulary. Two words of one chunk
-- that share a dimension are summed; across a billion dimensions that is rare and moves only candidates.
CREATE FUNCTION bm25_term_id(term text) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT (('x' || left(md5(term), 8))::bit(32)::bigint % 999999999 + 1)::integer $$;

ALTER TABLE chunks ADD COLUMN bm25_vector sparsevec(1000000000);

-- The vectors of these documents' chunks from their postings, weighted with the organization's live average length
-- (the documents' own before anything of the organization is live) and the default k1 = 1.2, b = 0.75. pgvector
-- indexes at most 1,000 non-zero elements; a chunk with more words keeps its 1,000 heaviest.
CREATE FUNCTION set_bm25_vectors(document_ids text[]) RETURNS void
LANGUAGE sql AS $$
WITH lengths AS (
  SELECT c.organization_id, greatest(coalesce(
    (SELECT sum(s.total_length)::float8 / nullif(sum(s.chunks), 0) FROM bm25_stats s
     WHERE s.organization_id = c.organization_id),
    avg(c.bm25_length)::float8), 1) AS avgdl
  FROM chunks c WHERE c.document_id = ANY(document_ids)
  GROUP BY c.organization_id
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
)
UPDATE chunks c SET bm25_vector = v.vector
FROM (SELECT chunk_id, ('{' || string_agg(dim || ':' || w, ',' ORDER BY dim) || '}/1000000000')::sparsevec AS vector
      FROM kept GROUP BY chunk_id) AS v
WHERE c.id = v.chunk_id
$$;

SET LOCAL maintenance_work_mem = '1GB';  -- an HNSW build over 100k chunks outgrows the 64 MB default
SELECT set_bm25_vectors(array_agg(id)) FROM documents;
-- A denser graph than pgvector's default (m 16, ef_construction 64): at 100k chunks it found as much of BM25's top 50
-- with the rare words' budget at 2,000 postings as the default did at 5,000, about a fifth faster, for a build 5x as
-- long (8 min against 1.5 on two cores) and an index 1.2x as large (docs/decisions.md, "BM25's candidates").
CREATE INDEX chunks_bm25_hnsw ON chunks USING hnsw (bm25_vector sparsevec_ip_ops) WITH (m = 32, ef_construction = 200);
