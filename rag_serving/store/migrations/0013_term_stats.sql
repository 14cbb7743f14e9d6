-- BM25 that skips the postings of common words (issue #15). Exact top-k with MaxScore needs each term's document
-- frequency before reading its postings: counting them was most of the sparse leg's time at 100k chunks. term_stats
-- holds the live postings per tenant rooftop and term, kept exact by statement-level triggers on chunk_terms, so every
-- writer (ingest, publish, cascaded deletes, benchmark loaders, TRUNCATE) keeps it in step in its own transaction.
CREATE TABLE term_stats (
    organization_id  text NOT NULL,
    term             text NOT NULL,
    rooftop_id       text NOT NULL,
    df               bigint NOT NULL CHECK (df >= 0),
    PRIMARY KEY (organization_id, term, rooftop_id)
);

-- The change a statement made to the live postings, per (organization, term, rooftop): counts that grow are upserted,
-- counts that shrink are updated (the CHECK refuses one that would go below zero: stats out of step stop the write)
-- and removed at zero. Rows are locked in key order, so two publishers touching the same terms queue instead of
-- deadlocking. SECURITY DEFINER: the writer's tenant settings do not decide which rooftops' counts it may update.
CREATE FUNCTION term_stats_apply() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp
AS $$
BEGIN
    IF TG_OP = 'TRUNCATE' THEN
        DELETE FROM term_stats;
        RETURN NULL;
    ELSIF TG_OP = 'INSERT' THEN
        INSERT INTO term_stats (organization_id, term, rooftop_id, df)
        SELECT organization_id, term, rooftop_id, count(*) FROM new_rows WHERE live GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
        ON CONFLICT (organization_id, term, rooftop_id) DO UPDATE SET df = term_stats.df + EXCLUDED.df;
        RETURN NULL;
    ELSIF TG_OP = 'UPDATE' THEN
        WITH delta AS MATERIALIZED (
            SELECT organization_id, term, rooftop_id, sum(d) AS df FROM (
                SELECT organization_id, term, rooftop_id, -1 AS d FROM old_rows WHERE live
                UNION ALL
                SELECT organization_id, term, rooftop_id, 1 FROM new_rows WHERE live
            ) AS changed GROUP BY 1, 2, 3 HAVING sum(d) <> 0
        ), grown AS (
            INSERT INTO term_stats (organization_id, term, rooftop_id, df)
            SELECT * FROM delta WHERE df > 0 ORDER BY 1, 2, 3
            ON CONFLICT (organization_id, term, rooftop_id) DO UPDATE SET df = term_stats.df + EXCLUDED.df
        )
        UPDATE term_stats s SET df = s.df + d.df FROM delta d
        WHERE d.df < 0 AND s.organization_id = d.organization_id AND s.term = d.term AND s.rooftop_id = d.rooftop_id;
    ELSE
        UPDATE term_stats s SET df = s.df - d.df
        FROM (SELECT organization_id, term, rooftop_id, count(*) AS df FROM old_rows WHERE live GROUP BY 1, 2, 3) AS d
        WHERE s.organization_id = d.organization_id AND s.term = d.term AND s.rooftop_id = d.rooftop_id;
    END IF;
    DELETE FROM term_stats s USING (SELECT DISTINCT organization_id, term, rooftop_id FROM old_rows WHERE live) AS o
    WHERE s.df = 0 AND s.organization_id = o.organization_id AND s.term = o.term AND s.rooftop_id = o.rooftop_id;
    RETURN NULL;
END
$$;

CREATE TRIGGER term_stats_insert AFTER INSERT ON chunk_terms REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION term_stats_apply();
CREATE TRIGGER term_stats_update AFTER UPDATE ON chunk_terms REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION term_stats_apply();
CREATE TRIGGER term_stats_delete AFTER DELETE ON chunk_terms REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION term_stats_apply();
CREATE TRIGGER term_stats_truncate AFTER TRUNCATE ON chunk_terms
    FOR EACH STATEMENT EXECUTE FUNCTION term_stats_apply();

INSERT INTO term_stats (organization_id, term, rooftop_id, df)
SELECT organization_id, term, rooftop_id, count(*) FROM chunk_terms WHERE live GROUP BY 1, 2, 3;

GRANT SELECT ON term_stats TO rag_app;
ALTER TABLE term_stats ENABLE ROW LEVEL SECURITY;
ALTER TABLE term_stats FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON term_stats
    USING (app_tenant_visible(organization_id, rooftop_id))
    WITH CHECK (app_tenant_visible(organization_id, rooftop_id));

-- The chunk id becomes a key column of the live postings' index: MaxScore looks up the common words of a question
-- only for the chunks still in the running, one index probe per (term, chunk), without reading the heap.
CREATE INDEX chunk_terms_live_probe ON chunk_terms (organization_id, term, chunk_id) INCLUDE (rooftop_id, tf, length)
    WHERE live;
DROP INDEX chunk_terms_live;
