-- Sparse leg: Okapi BM25, exact top LIMIT, reading only the postings of the question's rarer words (MaxScore, Turtle
-- and Flood 1995). The caller (search/bm25.py) splits the question's terms in two, each with its weight qtf · idf
-- (question_terms.sql): `essential` terms, whose postings are all read, and the `rest`, common words whose summed bound
-- (weight · (k1 + 1), which a term's tf part never reaches) is %(bound)s. A chunk holding none of the essential terms
-- scores at most that bound; once θ, a lower bound of the LIMIT-th final score, exceeds it, no such chunk can make the
-- top, and a candidate whose score so far plus the bound of the words still to come stays below θ cannot either. The
-- rest's words are then added to the candidates still in the running, largest bound first, each in the cheaper of
-- two ways: its postings read whole and summed with the candidates (while it has fewer than %(scan_ratio)s times as
-- many postings as there are candidates), else an index probe per candidate, one (term, chunk) at a time.
-- When θ does not exceed the bound the statement returns a single row with a NULL id, θ as its score and the number
-- of candidates as its rank, and the caller moves common words into `essential`; with no rest it is plain BM25 over
-- every posting. Postings are the live ones this tenant may see (row-level security) from the covering index
-- chunk_terms_live_probe (migration 0013). A request with filters scores only the chunks they admit (chunk_filter.sql).
WITH RECURSIVE essential AS (
  SELECT * FROM unnest(%(essential)s::text[], %(essential_w)s::float8[]) AS e(term, w)
),
-- The rest in the order they are probed, largest bound first; `after` is the summed bound of the words after it.
rest AS (
  SELECT * FROM unnest(%(rest)s::text[], %(rest_w)s::float8[], %(rest_after)s::float8[], %(rest_df)s::float8[])
    WITH ORDINALITY AS r(term, w, after, df, step)
),
partial AS MATERIALIZED (
  SELECT p.chunk_id AS id, sum(e.w * bm25_tf(p.tf, p.length, %(avgdl)s, %(k1)s, %(b)s)) AS score
  FROM chunk_terms p
  JOIN essential e ON e.term = p.term
  WHERE p.live
    AND p.organization_id = current_setting('app.organization_id', true)
    AND p.term = ANY(%(essential)s::text[])
  {chunk_filter}
  GROUP BY p.chunk_id
),
-- The best partial scores made whole (%(head)s of them, a few times the LIMIT): θ, the LIMIT-th best of their final
-- scores, is a lower bound of the LIMIT-th final score, much closer to it than the partial scores' own LIMIT-th.
head AS MATERIALIZED (
  SELECT h.id, h.score + coalesce((
    SELECT sum(r.w * bm25_tf(p.tf, p.length, %(avgdl)s, %(k1)s, %(b)s))
    FROM chunk_terms p
    JOIN rest r ON r.term = p.term
    WHERE p.live
      AND p.organization_id = current_setting('app.organization_id', true)
      AND p.term = ANY(%(rest)s::text[])
      AND p.chunk_id = h.id
  ), 0) AS score
  FROM (SELECT id, score FROM partial ORDER BY score DESC LIMIT %(head)s) AS h
),
theta AS (
  SELECT count(*) AS n, coalesce(min(score), 0) AS score
  FROM (SELECT score FROM head ORDER BY score DESC LIMIT %(limit)s) AS best
),
valid AS (
  SELECT cardinality(%(rest)s::text[]) = 0 OR (theta.n = %(limit)s AND theta.score > %(bound)s + 1e-6) AS ok
  FROM theta
),
-- The other candidates that could still make the top.
pool AS MATERIALIZED (
  SELECT p.id, p.score
  FROM partial p, theta
  WHERE (SELECT ok FROM valid)  -- once, before any row: an unproven split reads no further
    AND p.score + %(bound)s >= theta.score - 1e-6
    AND p.id NOT IN (SELECT id FROM head)
),
-- How many of the rest's words (largest bound first, so fewest postings first) are read whole: a posting read and
-- summed costs a fraction of an index probe, so a word with fewer postings than %(scan_ratio)s times the candidates is
-- cheaper read whole than probed for each of them. The others are probed.
scans AS (
  SELECT coalesce(min(step) - 1, cardinality(%(rest)s::text[])) AS n
  FROM rest WHERE df >= %(scan_ratio)s * (SELECT count(*) FROM pool)
),
-- The candidates with the words read whole added, those that can no longer reach θ dropped.
scanned AS MATERIALIZED (
  SELECT x.id, sum(x.score) AS score
  FROM (
    SELECT id, score, true AS candidate FROM pool
    UNION ALL
    SELECT p.chunk_id, r.w * bm25_tf(p.tf, p.length, %(avgdl)s, %(k1)s, %(b)s), false
    FROM chunk_terms p
    JOIN rest r ON r.term = p.term
    WHERE p.live
      AND p.organization_id = current_setting('app.organization_id', true)
      AND p.term = ANY(ARRAY(SELECT term FROM rest WHERE step <= (SELECT n FROM scans)))
  ) AS x
  GROUP BY x.id
  HAVING bool_or(x.candidate)
    AND sum(x.score) + coalesce((SELECT after FROM rest WHERE step = (SELECT n FROM scans)), %(bound)s)
        >= (SELECT score FROM theta) - 1e-6
),
-- The rest gain the probed words one at a time, and drop out as soon as what they have plus what the words still to
-- come could add falls below θ.
walk AS (
  SELECT id, score, (SELECT n FROM scans) + 1 AS step
  FROM scanned
  UNION ALL
  SELECT w.id, w.score + coalesce(t.add, 0), w.step + 1
  FROM walk w
  JOIN rest r ON r.step = w.step
  CROSS JOIN theta
  LEFT JOIN LATERAL (
    SELECT r.w * bm25_tf(p.tf, p.length, %(avgdl)s, %(k1)s, %(b)s) AS add
    FROM chunk_terms p
    WHERE p.live
      AND p.organization_id = current_setting('app.organization_id', true)
      AND p.term = r.term
      AND p.chunk_id = w.id
  ) AS t ON true
  WHERE w.score + coalesce(t.add, 0) + r.after >= theta.score - 1e-6
),
scored AS MATERIALIZED (
  SELECT id, score FROM walk WHERE step = cardinality(%(rest)s::text[]) + 1
  UNION ALL
  SELECT head.id, head.score FROM head, valid WHERE valid.ok
),
-- Identical chunks (an unchanged paragraph in two editions) score the same up to the last bit of a floating-point sum
-- whose order depends on the plan: rank on the score rounded to 1e-9, so such chunks share a rank (fusion never
-- tells them apart by their content-hash ids) and a cut among them goes to the id, every time. That
-- sort is slow over every scored chunk; a chunk that makes the rounded top LIMIT scores within 1e-9 of the LIMIT-th
-- best raw score, so only those are sorted: the same result, exactly.
floor AS (
  SELECT min(score) - 1e-9 AS score FROM (SELECT score FROM scored ORDER BY score DESC LIMIT %(limit)s) AS best
),
ranked AS (
  SELECT id, score, rank() OVER (ORDER BY round(score::numeric, 9) DESC) AS rank
  FROM scored WHERE score >= (SELECT score FROM floor)
  ORDER BY round(score::numeric, 9) DESC, id LIMIT %(limit)s
)
SELECT id, score, rank FROM ranked
UNION ALL
SELECT NULL, theta.score, theta.n FROM theta, valid WHERE NOT valid.ok
ORDER BY rank, id
