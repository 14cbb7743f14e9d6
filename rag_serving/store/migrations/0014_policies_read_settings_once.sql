-- Row-level security that reads the tenant settings once per statement, not once per row (issue #15). The policies
-- called app_tenant_visible(organization_id, rooftop_id), which PostgreSQL inlines as a per-row filter that splits
-- app.rooftop_ids again for every row; in scalar subqueries the settings are planned once (InitPlans). A function
-- cannot hold those subqueries: with them it is no longer inlined and costs a call per row. Timings are in
-- docs/decisions.md. Visibility is unchanged: an unset setting is NULL and admits no row.
DO $$
DECLARE
    visible constant text := $v$organization_id = (SELECT current_setting('app.organization_id', true))
        AND rooftop_id = ANY ((SELECT string_to_array(current_setting('app.rooftop_ids', true), ','))::text[])$v$;
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['documents', 'pages', 'sections', 'chunks', 'chunk_terms', 'bm25_stats', 'ingest_errors',
                             'chunk_token_vectors', 'chunk_sentence_vectors', 'term_stats']
    LOOP
        EXECUTE format('DROP POLICY tenant_isolation ON %I', t);
        EXECUTE format('CREATE POLICY tenant_isolation ON %I USING (%s) WITH CHECK (%s)', t, visible, visible);
    END LOOP;
END
$$;

-- No policy calls it any more.
DROP FUNCTION app_tenant_visible(text, text);
