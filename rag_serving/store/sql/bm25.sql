-- Sparse leg: Okapi BM25 over the postings table, inside PostgreSQL (bm25_idf and bm25_tf, migration 0008). Terms
-- are the question's lexemes under the same 'english' configuration that built the postings. N and avgdl come from
-- bm25_stats, df and the lengths from the live postings this tenant may see (row-level security scopes every table
-- read), read once from the covering index chunk_terms_live (migration 0011) and reused for df and scores: no join
-- per posting. A request with filters scores only the chunks they admit (chunk_filter.sql). A lexeme the question
-- repeats counts as often as it occurs (qtf), as in Lucene and bm25s: to_tsvector keeps one row per lexeme with the
-- positions of each occurrence.
WITH q AS (
  SELECT t.lexeme AS term, coalesce(array_length(t.positions, 1), 1) AS qtf
  FROM unnest(to_tsvector('english', %(question)s)) AS t
),
postings AS MATERIALIZED (
  SELECT p.term, p.chunk_id, p.tf, p.length
  FROM chunk_terms p
  WHERE p.live
    AND p.organization_id = current_setting('app.organization_id', true)
    AND p.term = ANY(ARRAY(SELECT term FROM q))
),
corpus AS (
  SELECT sum(chunks)::float8 AS n, greatest(sum(total_length)::float8 / nullif(sum(chunks), 0), 1) AS avgdl
  FROM bm25_stats
),
df AS (
  SELECT term, count(*)::float8 AS df FROM postings GROUP BY term
),
scored AS MATERIALIZED (
  SELECT p.chunk_id AS id,
         sum(q.qtf * bm25_idf(corpus.n, df.df) * bm25_tf(p.tf, p.length, corpus.avgdl, %(k1)s, %(b)s)) AS score
  FROM postings p
  JOIN q ON q.term = p.term
  JOIN df ON df.term = p.term
  CROSS JOIN corpus
  WHERE true
  {chunk_filter}
  GROUP BY p.chunk_id
),
-- Identical chunks (an unchanged paragraph in two editions) score the same up to the last bit of a floating-point sum
-- whose order depends on the plan: rank on the score rounded to 1e-9, so such ties go to the id, every time. That
-- sort is slow over every scored chunk (tens of thousands at 100k chunks); a chunk that makes the rounded top LIMIT
-- scores within 1e-9 of the LIMIT-th best raw score, so only those are sorted: the same result, exactly.
floor AS (
  SELECT min(score) - 1e-9 AS score FROM (SELECT score FROM scored ORDER BY score DESC LIMIT %(limit)s) AS best
)
SELECT id, score, row_number() OVER (ORDER BY round(score::numeric, 9) DESC, id) AS rank
FROM scored WHERE score >= (SELECT score FROM floor)
ORDER BY round(score::numeric, 9) DESC, id LIMIT %(limit)s
