-- Sparse leg: Okapi BM25 over the postings table, inside PostgreSQL. Terms are the question's
-- lexemes under the same 'english' configuration that built the postings. N, avgdl and df are
-- taken over the live chunks this tenant may see (row-level security scopes every table read).
WITH q AS (
  SELECT DISTINCT t.lexeme AS term FROM unnest(to_tsvector('english', %(question)s)) AS t
),
corpus AS (
  SELECT count(*)::float8 AS n, greatest(avg(c.bm25_length), 1)::float8 AS avgdl
  FROM chunks c JOIN documents d ON d.id = c.document_id
  WHERE d.status = 'live'
),
df AS (
  SELECT p.term, count(*)::float8 AS df
  FROM chunk_terms p JOIN q ON q.term = p.term
  JOIN documents d ON d.id = p.document_id
  WHERE d.status = 'live'
  GROUP BY p.term
),
scored AS (
  SELECT p.chunk_id AS id,
         sum(ln(1 + (corpus.n - df.df + 0.5) / (df.df + 0.5))
             * p.tf * (%(k1)s + 1)
             / (p.tf + %(k1)s * (1 - %(b)s + %(b)s * c.bm25_length / corpus.avgdl))) AS score
  FROM chunk_terms p
  JOIN df ON df.term = p.term
  JOIN chunks c ON c.id = p.chunk_id
  JOIN documents d ON d.id = c.document_id
  LEFT JOIN sections s ON s.id = c.section_id
  CROSS JOIN corpus
  WHERE true
  {filters}
  GROUP BY p.chunk_id
)
SELECT id, score, row_number() OVER (ORDER BY score DESC, id) AS rank
FROM scored ORDER BY score DESC, id LIMIT %(limit)s
