-- The question's lexemes for the sparse leg, each with its BM25 weight qtf · idf: how often the question says each (qtf; repeats count, as in Lucene and
-- bm25s) and in how many live chunks this tenant may see it occurs (df, from term_stats, migration 0013), with the
-- collection's N and avgdl (bm25_stats). Terms are the question's lexemes under the 'english' configuration that
-- built the postings; row-level security scopes both tables to the tenant's rooftops.
WITH q AS (
  SELECT t.lexeme AS term, coalesce(array_length(t.positions, 1), 1) AS qtf
  FROM unnest(to_tsvector('english', %(question)s)) AS t
),
df AS (
  SELECT s.term, sum(s.df)::float8 AS df
  FROM term_stats s
  WHERE s.organization_id = current_setting('app.organization_id', true)
    AND s.term = ANY(ARRAY(SELECT term FROM q))
  GROUP BY s.term
),
corpus AS (
  SELECT coalesce(sum(chunks), 0)::float8 AS n,
         greatest(sum(total_length)::float8 / nullif(sum(chunks), 0), 1) AS avgdl
  FROM bm25_stats
)
SELECT q.term, q.qtf, df.df, q.qtf * bm25_idf(corpus.n, df.df) AS weight, corpus.avgdl
FROM q JOIN df ON df.term = q.term CROSS JOIN corpus
ORDER BY q.term
