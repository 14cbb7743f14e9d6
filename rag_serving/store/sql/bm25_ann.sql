-- Sparse leg for questions whose words have many postings: Okapi BM25's top LIMIT over candidates, which is where it
-- may differ from reading every posting. The candidates are the %(near)s nearest chunks by inner product with the
-- question's vector of qtf · idf weights over the chunks' stored tf parts (bm25_vector's HNSW index, migration 0016),
-- and the %(rare_head)s chunks scoring best on the `rare` words alone (the rarest, whose postings are few, read from
-- the covering index without touching a chunk): a chunk that scores on its rare words is the kind a graph walk can
-- miss. The %(head)s best of those by stored weights are scored exactly from the postings, with this request's
-- average length, k1 and b, and ranked as bm25_pruned.sql ranks (tied chunks share a rank; a cut among them goes to
-- the id).
-- Row-level security scopes every read; a request with filters considers only the chunks they admit.
WITH q AS (
  SELECT * FROM unnest(%(terms)s::text[], %(weights)s::float8[]) AS q(term, w)
),
qv AS (
  SELECT ('{{' || string_agg(dim || ':' || w, ',' ORDER BY dim) || '}}/1000000000')::sparsevec AS v  -- braces doubled: a format string
  FROM (SELECT bm25_term_id(term) AS dim, sum(w)::real AS w FROM q GROUP BY 1) AS t
),
near AS MATERIALIZED (
  SELECT c.id
  FROM chunks c
  JOIN documents d ON d.id = c.document_id
  LEFT JOIN sections s ON s.id = c.section_id
  WHERE c.bm25_vector IS NOT NULL
  {filters}
  ORDER BY c.bm25_vector <#> (SELECT v FROM qv)
  LIMIT %(near)s
),
rare AS MATERIALIZED (
  SELECT p.chunk_id AS id
  FROM chunk_terms p
  JOIN q ON q.term = p.term
  WHERE p.live
    AND p.organization_id = current_setting('app.organization_id', true)
    AND p.term = ANY(%(rare)s::text[])
  {chunk_filter}
  GROUP BY p.chunk_id
  ORDER BY sum(q.w * bm25_tf(p.tf, p.length, %(avgdl)s, %(k1)s, %(b)s)) DESC, p.chunk_id
  LIMIT %(rare_head)s
),
-- Looked up by id (an array, so the planner cannot choose to scan every chunk and hash them).
best AS MATERIALIZED (
  SELECT c.id
  FROM chunks c
  WHERE c.organization_id = %(organization)s AND c.id = ANY(ARRAY(SELECT id FROM near UNION SELECT id FROM rare))
  ORDER BY c.bm25_vector <#> (SELECT v FROM qv), c.id
  LIMIT %(head)s
),
-- Scored word by word: one index scan per word for every candidate at once (chunk_id = ANY), which PostgreSQL walks
-- along the word's postings instead of descending the index for each (chunk, word) pair: at 100k chunks ~260 descents
-- instead of ~900, about a millisecond of the leg (docs/decisions.md, "BM25's candidates"). A candidate holding none
-- of the words scores nothing and is dropped, as an inner join per chunk dropped it.
scored AS (
  SELECT p.chunk_id AS id, sum(q.w * bm25_tf(p.tf, p.length, %(avgdl)s, %(k1)s, %(b)s)) AS score
  FROM q
  JOIN chunk_terms p
    ON p.organization_id = current_setting('app.organization_id', true)
   AND p.term = q.term AND p.live AND p.chunk_id = ANY(ARRAY(SELECT id FROM best))
  GROUP BY p.chunk_id
)
SELECT id, score, rank() OVER (ORDER BY round(score::numeric, 9) DESC) AS rank
FROM scored
ORDER BY rank, id
LIMIT %(limit)s
