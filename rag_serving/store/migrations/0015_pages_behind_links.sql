-- The cited pages behind every link (issue #16): the serving role reads an ingested file only when the tenant can see
-- a document made from it. files is content-addressed and shared by every tenant that ingested the same bytes, so its
-- policy asks documents, whose own policy scopes the subquery to the request's tenant. Ingest bypasses it, as on every
-- content table.
GRANT SELECT ON files TO rag_app;
ALTER TABLE files ENABLE ROW LEVEL SECURITY;
ALTER TABLE files FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON files FOR SELECT
    USING (EXISTS (SELECT 1 FROM documents d WHERE d.sha256 = files.sha256));

-- A page link carries no API key: it is signed with the key's hash and names the key by the hash's first 16 hex
-- digits. This returns that hash and the tenant for an active key, so revoking the key also kills its links.
CREATE FUNCTION app_link_key(key_id text) RETURNS TABLE (key_sha256 text, organization_id text, rooftop_ids text[])
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
AS $$ SELECT k.key_sha256, k.organization_id, k.rooftop_ids FROM api_keys k
      WHERE left(k.key_sha256, 16) = key_id AND length(key_id) = 16 AND k.revoked_at IS NULL $$;
REVOKE ALL ON FUNCTION app_link_key(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION app_link_key(text) TO rag_app;
