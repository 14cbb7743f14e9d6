-- BM25 corpus statistics per tenant (live chunks and their total length), kept current by the
-- publish step, so a query reads two numbers instead of scanning every chunk for N and avgdl.
CREATE TABLE bm25_stats (
    organization_id  text NOT NULL,
    rooftop_id       text NOT NULL,
    chunks           bigint NOT NULL,
    total_length     bigint NOT NULL,
    refreshed_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, rooftop_id)
);

CREATE FUNCTION refresh_bm25_stats(org text, rooftop text) RETURNS void
LANGUAGE sql AS $$
    INSERT INTO bm25_stats (organization_id, rooftop_id, chunks, total_length)
    SELECT org, rooftop, count(*), coalesce(sum(c.bm25_length), 0)
    FROM chunks c JOIN documents d ON d.id = c.document_id
    WHERE d.status = 'live' AND c.organization_id = org AND c.rooftop_id = rooftop
    ON CONFLICT (organization_id, rooftop_id)
    DO UPDATE SET chunks = EXCLUDED.chunks, total_length = EXCLUDED.total_length, refreshed_at = now()
$$;

GRANT SELECT ON bm25_stats TO rag_app;
ALTER TABLE bm25_stats ENABLE ROW LEVEL SECURITY;
ALTER TABLE bm25_stats FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON bm25_stats
    USING (app_tenant_visible(organization_id, rooftop_id))
    WITH CHECK (app_tenant_visible(organization_id, rooftop_id));

SELECT refresh_bm25_stats(organization_id, rooftop_id)
FROM (SELECT DISTINCT organization_id, rooftop_id FROM documents WHERE status = 'live') AS t;
