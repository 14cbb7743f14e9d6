-- Per-token vectors for late interaction (MaxSim): computed at ingest, because encoding 100
-- candidates at query time costs seconds on a CPU while reading their vectors costs milliseconds.
-- int8 with one float16 scale per token (max-abs): tokens × (dim + 2) bytes per chunk.
CREATE TABLE chunk_token_vectors (
    chunk_id         text NOT NULL REFERENCES chunks (id) ON DELETE CASCADE,
    model            text NOT NULL,
    organization_id  text NOT NULL,
    rooftop_id       text NOT NULL,
    body_sha256      text NOT NULL,
    tokens           integer NOT NULL CHECK (tokens >= 0),
    dim              integer NOT NULL CHECK (dim > 0),
    vectors          bytea NOT NULL,            -- int8, tokens × dim, row-major
    scales           bytea NOT NULL,            -- float16, one per token
    PRIMARY KEY (chunk_id, model)
);
-- A re-ingested version reuses the vectors of an unchanged chunk body of the same tenant.
CREATE INDEX chunk_token_vectors_reuse ON chunk_token_vectors (organization_id, rooftop_id, model, body_sha256);

GRANT SELECT ON chunk_token_vectors TO rag_app;
ALTER TABLE chunk_token_vectors ENABLE ROW LEVEL SECURITY;
ALTER TABLE chunk_token_vectors FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON chunk_token_vectors
    USING (app_tenant_visible(organization_id, rooftop_id))
    WITH CHECK (app_tenant_visible(organization_id, rooftop_id));
