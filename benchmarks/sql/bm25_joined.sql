-- The sparse leg before migration 0011, kept as the latency benchmark's baseline (benchmarks.latency, mode
-- bm25_joined): a join per posting; it counts repeated query lexemes as the shipped one does. Okapi BM25 over the postings table, inside PostgreSQL (bm25_idf and bm25_tf, migration 0008). Terms
-- are the question's lexemes under the same 'english' configuration that built the postings. N and avgdl come from
-- bm25_stats and df from the postings, over the live chunks this tenant may see (row-level security scopes every
-- table read). The postings of the question's terms are read once, by index, and reused for df and scores.
WITH q AS (
  SELECT t.lexeme AS term, coalesce(array_length(t.positions, 1), 1) AS qtf
  FROM unnest(to_tsvector('english', %(question)s)) AS t
),
postings AS MATERIALIZED (
  SELECT p.term, p.chunk_id, p.tf
  FROM q JOIN chunk_terms p ON p.term = q.term
  JOIN documents d ON d.id = p.document_id
  WHERE d.status = 'live'
),
corpus AS (
  SELECT sum(chunks)::float8 AS n, greatest(sum(total_length)::float8 / nullif(sum(chunks), 0), 1) AS avgdl
  FROM bm25_stats
),
df AS (
  SELECT term, count(*)::float8 AS df FROM postings GROUP BY term
),
scored AS (
  SELECT p.chunk_id AS id,
         sum(q.qtf * bm25_idf(corpus.n, df.df) * bm25_tf(p.tf, c.bm25_length, corpus.avgdl, %(k1)s, %(b)s)) AS score
  FROM postings p
  JOIN q ON q.term = p.term
  JOIN df ON df.term = p.term
  JOIN chunks c ON c.id = p.chunk_id
  JOIN documents d ON d.id = c.document_id
  LEFT JOIN sections s ON s.id = c.section_id
  CROSS JOIN corpus
  WHERE true
  {filters}
  GROUP BY p.chunk_id
)
-- Identical chunks (an unchanged paragraph in two editions) score the same up to the last bit of a floating-point sum
-- whose order depends on the plan: rank on the score rounded to 1e-9, so such ties go to the id, every time.
SELECT id, score, row_number() OVER (ORDER BY round(score::numeric, 9) DESC, id) AS rank
FROM scored ORDER BY round(score::numeric, 9) DESC, id LIMIT %(limit)s
