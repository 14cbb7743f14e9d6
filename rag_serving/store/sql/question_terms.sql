-- The question's lexemes with their BM25 IDF over the live chunks this tenant may see (row-level security scopes
-- every read), computed with the sparse leg's own function from term_stats' document frequencies (migration 0013;
-- 0 for a word no visible chunk holds), plus N and avgdl.
WITH q AS (
  SELECT DISTINCT t.lexeme AS term FROM unnest(to_tsvector('english', %(question)s)) AS t
),
corpus AS (
  SELECT coalesce(sum(chunks), 0)::float8 AS n, greatest(sum(total_length)::float8 / nullif(sum(chunks), 0), 1) AS avgdl
  FROM bm25_stats
),
df AS (
  SELECT q.term, coalesce(sum(s.df), 0)::float8 AS df
  FROM q LEFT JOIN term_stats s
    ON s.term = q.term AND s.organization_id = current_setting('app.organization_id', true)
  GROUP BY q.term
)
SELECT df.term, bm25_idf(corpus.n, df.df) AS idf, corpus.n, corpus.avgdl
FROM df CROSS JOIN corpus
ORDER BY df.term
