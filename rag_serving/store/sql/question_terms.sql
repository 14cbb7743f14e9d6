-- The question's lexemes (PostgreSQL's 'english' configuration, as the postings), each with how often the question
-- says it (qtf: to_tsvector keeps one row per lexeme with the positions of each occurrence), in how many live chunks
-- this tenant may see it occurs (df, from term_stats, migration 0013; 0 for a word no visible chunk holds) and its
-- BM25 IDF by the sparse leg's own function, plus N and avgdl. Row-level security scopes every read. Read once per
-- request (search.query.Query.terms): the sparse leg and the reranker's features share it.
WITH q AS (
  SELECT t.lexeme AS term, coalesce(array_length(t.positions, 1), 1) AS qtf
  FROM unnest(to_tsvector('english', %(question)s)) AS t
),
corpus AS (
  SELECT coalesce(sum(chunks), 0)::float8 AS n, greatest(sum(total_length)::float8 / nullif(sum(chunks), 0), 1) AS avgdl
  FROM bm25_stats
),
df AS (
  SELECT q.term, q.qtf, coalesce(sum(s.df), 0)::float8 AS df
  FROM q LEFT JOIN term_stats s
    ON s.term = q.term AND s.organization_id = current_setting('app.organization_id', true)
  GROUP BY q.term, q.qtf
)
SELECT df.term, df.qtf, df.df, bm25_idf(corpus.n, df.df) AS idf, corpus.n, corpus.avgdl
FROM df CROSS JOIN corpus
ORDER BY df.term
