-- Retrieval: embedding cache, BM25 postings, full-text index, API keys, and tenant row-level security.

-- Vectors by (model, sha256 of the NFKC-normalized, stripped text): re-chunking unchanged text
-- or re-ingesting a file never embeds the same text twice.
CREATE TABLE embedding_cache (
    model        text NOT NULL,
    text_sha256  text NOT NULL,
    embedding    vector NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (model, text_sha256)
);

ALTER TABLE documents ADD COLUMN embedding_model text;
-- BM25 document length: lexeme occurrences in the chunk's tsvector.
ALTER TABLE chunks ADD COLUMN bm25_length integer;
CREATE INDEX chunks_tsv ON chunks USING gin (tsv);
CREATE INDEX chunks_document ON chunks (document_id);

-- Postings for Okapi BM25, derived from the chunk's tsvector (same stemming and stopwords as the
-- full-text leg). Term first: a query reads the postings of its few terms.
CREATE TABLE chunk_terms (
    term             text NOT NULL,
    chunk_id         text NOT NULL REFERENCES chunks (id) ON DELETE CASCADE,
    document_id      text NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    organization_id  text NOT NULL,
    rooftop_id       text NOT NULL,
    tf               integer NOT NULL CHECK (tf > 0),
    PRIMARY KEY (term, chunk_id)
);
CREATE INDEX chunk_terms_chunk ON chunk_terms (chunk_id);
CREATE INDEX chunk_terms_document ON chunk_terms (document_id);

-- API keys for the query endpoint: only a SHA-256 of the key is stored; the tenant comes from here,
-- never from a request body.
CREATE TABLE api_keys (
    key_sha256       text PRIMARY KEY CHECK (key_sha256 ~ '^[0-9a-f]{64}$'),
    organization_id  text NOT NULL,
    rooftop_ids      text[] NOT NULL CHECK (cardinality(rooftop_ids) > 0),
    label            text NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now(),
    revoked_at       timestamptz
);

-- The role the serving package connects as. It cannot bypass row-level security, and FORCE makes
-- the policies apply even to a table owner. Ingest runs as an administrative role (the embedded
-- server's superuser, or a role with BYPASSRLS) because it works across tenants.
DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'rag_app') THEN
        CREATE ROLE rag_app LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
    END IF;
END
$$;
GRANT USAGE ON SCHEMA public TO rag_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON documents, pages, sections, chunks, chunk_terms TO rag_app;
GRANT SELECT ON api_keys TO rag_app;
-- No grant on files, embedding_cache or ingest_errors: raw bytes and cross-tenant caches stay with ingest.

ALTER TABLE documents ENABLE ROW LEVEL SECURITY;
ALTER TABLE documents FORCE ROW LEVEL SECURITY;
ALTER TABLE pages ENABLE ROW LEVEL SECURITY;
ALTER TABLE pages FORCE ROW LEVEL SECURITY;
ALTER TABLE sections ENABLE ROW LEVEL SECURITY;
ALTER TABLE sections FORCE ROW LEVEL SECURITY;
ALTER TABLE chunks ENABLE ROW LEVEL SECURITY;
ALTER TABLE chunks FORCE ROW LEVEL SECURITY;
ALTER TABLE chunk_terms ENABLE ROW LEVEL SECURITY;
ALTER TABLE chunk_terms FORCE ROW LEVEL SECURITY;
ALTER TABLE ingest_errors ENABLE ROW LEVEL SECURITY;
ALTER TABLE ingest_errors FORCE ROW LEVEL SECURITY;

-- Unset settings read as NULL (or '' after a transaction-local set), which matches no row.
CREATE FUNCTION app_tenant_visible(org text, rooftop text) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT org = current_setting('app.organization_id', true)
       AND rooftop = ANY (string_to_array(current_setting('app.rooftop_ids', true), ','))
$$;

CREATE POLICY tenant_isolation ON documents
    USING (app_tenant_visible(organization_id, rooftop_id))
    WITH CHECK (app_tenant_visible(organization_id, rooftop_id));
CREATE POLICY tenant_isolation ON pages
    USING (app_tenant_visible(organization_id, rooftop_id))
    WITH CHECK (app_tenant_visible(organization_id, rooftop_id));
CREATE POLICY tenant_isolation ON sections
    USING (app_tenant_visible(organization_id, rooftop_id))
    WITH CHECK (app_tenant_visible(organization_id, rooftop_id));
CREATE POLICY tenant_isolation ON chunks
    USING (app_tenant_visible(organization_id, rooftop_id))
    WITH CHECK (app_tenant_visible(organization_id, rooftop_id));
CREATE POLICY tenant_isolation ON chunk_terms
    USING (app_tenant_visible(organization_id, rooftop_id))
    WITH CHECK (app_tenant_visible(organization_id, rooftop_id));
CREATE POLICY tenant_isolation ON ingest_errors
    USING (app_tenant_visible(organization_id, rooftop_id))
    WITH CHECK (app_tenant_visible(organization_id, rooftop_id));
