-- Okapi BM25 written once. The sparse leg, the question's term IDFs and the reranker's BM25 feature all call these;
-- single-expression IMMUTABLE SQL functions are inlined by the planner, so they cost nothing per row.
CREATE FUNCTION bm25_idf(n float8, df float8) RETURNS float8
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT ln(1 + (n - df + 0.5) / (df + 0.5)) $$;

-- Saturated, length-normalized term frequency; length and avgdl count lexeme occurrences (bm25_length).
CREATE FUNCTION bm25_tf(tf float8, length float8, avgdl float8, k1 float8, b float8) RETURNS float8
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / avgdl)) $$;
