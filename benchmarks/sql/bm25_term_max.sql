-- Each question word's largest tf part over the live postings this tenant sees: how far below its MaxScore bound
-- (k1 + 1) the real maximum sits.
SELECT term, max(bm25_tf(tf, length, %(avgdl)s, %(k1)s, %(b)s)) AS top
FROM chunk_terms
WHERE live AND organization_id = current_setting('app.organization_id', true) AND term = ANY(%(terms)s::text[])
GROUP BY term
