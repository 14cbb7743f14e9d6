-- The cross-tenant probe, run as the serving role in one tenant's session: per table, the rows it can see and how
-- many of them belong to another tenant. Row-level security must make every `other` zero; `visible` shows the probe
-- looked at something. Every table the serving role may read that carries a tenant (ingest_errors it may not read).
SELECT 'documents' AS table_name, count(*) AS visible,
       count(*) FILTER (WHERE (organization_id, rooftop_id) <> (%(org)s, %(rooftop)s)) AS other FROM documents
UNION ALL SELECT 'pages', count(*), count(*) FILTER (WHERE (organization_id, rooftop_id) <> (%(org)s, %(rooftop)s))
FROM pages
UNION ALL SELECT 'sections', count(*), count(*) FILTER (WHERE (organization_id, rooftop_id) <> (%(org)s, %(rooftop)s))
FROM sections
UNION ALL SELECT 'chunks', count(*), count(*) FILTER (WHERE (organization_id, rooftop_id) <> (%(org)s, %(rooftop)s))
FROM chunks
UNION ALL SELECT 'chunk_terms', count(*),
       count(*) FILTER (WHERE (organization_id, rooftop_id) <> (%(org)s, %(rooftop)s)) FROM chunk_terms
UNION ALL SELECT 'chunk_token_vectors', count(*),
       count(*) FILTER (WHERE (organization_id, rooftop_id) <> (%(org)s, %(rooftop)s)) FROM chunk_token_vectors
UNION ALL SELECT 'chunk_sentence_vectors', count(*),
       count(*) FILTER (WHERE (organization_id, rooftop_id) <> (%(org)s, %(rooftop)s)) FROM chunk_sentence_vectors
UNION ALL SELECT 'bm25_stats', count(*),
       count(*) FILTER (WHERE (organization_id, rooftop_id) <> (%(org)s, %(rooftop)s)) FROM bm25_stats
UNION ALL SELECT 'term_stats', count(*),
       count(*) FILTER (WHERE (organization_id, rooftop_id) <> (%(org)s, %(rooftop)s)) FROM term_stats
