-- Least privilege for the serving role: it answers questions, so it reads content and logs web searches; ingest
-- (the owner role) is the only writer.
REVOKE INSERT, UPDATE, DELETE ON documents, pages, sections, chunks, chunk_terms FROM rag_app;

-- A key is looked up by its hash through this one function, never by reading the table: the serving role cannot
-- list other tenants' keys. SECURITY DEFINER runs it as the table's owner; search_path is pinned so a caller's
-- objects cannot stand in for the table.
REVOKE SELECT ON api_keys FROM rag_app;
CREATE FUNCTION app_tenant_for_key(key_hash text) RETURNS TABLE (organization_id text, rooftop_ids text[])
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
AS $$ SELECT k.organization_id, k.rooftop_ids FROM api_keys k WHERE k.key_sha256 = key_hash AND k.revoked_at IS NULL $$;
REVOKE ALL ON FUNCTION app_tenant_for_key(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION app_tenant_for_key(text) TO rag_app;

-- The web-search log is a rooftop's, not its organization's: a key sees and writes only rows whose rooftops are all
-- its own (a row names the rooftops of the key that asked, comma-separated).
DROP POLICY tenant_isolation ON web_fallbacks;
CREATE FUNCTION app_rooftops_visible(org text, rooftops text) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT org = current_setting('app.organization_id', true)
       AND string_to_array(rooftops, ',') <@ string_to_array(current_setting('app.rooftop_ids', true), ',')
$$;
CREATE POLICY tenant_isolation ON web_fallbacks
    USING (app_rooftops_visible(organization_id, rooftop_id))
    WITH CHECK (app_rooftops_visible(organization_id, rooftop_id));
