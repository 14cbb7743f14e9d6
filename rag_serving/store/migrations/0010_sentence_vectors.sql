-- Unit vectors of each chunk's quotable sentences, for the answer step: computed at ingest, because embedding the
-- candidate sentences of five passages was ~100 ms of every question on 2 cores (docs/decisions.md).
-- float32, sentences × dim, in the order of `sentences`; the answer step looks a sentence up by its text.
CREATE TABLE chunk_sentence_vectors (
    chunk_id         text NOT NULL REFERENCES chunks (id) ON DELETE CASCADE,
    model            text NOT NULL,
    organization_id  text NOT NULL,
    rooftop_id       text NOT NULL,
    body_sha256      text NOT NULL,
    sentences        text[] NOT NULL,
    dim              integer NOT NULL CHECK (dim > 0),
    vectors          bytea NOT NULL CHECK (length(vectors) = cardinality(sentences) * dim * 4),
    PRIMARY KEY (chunk_id, model)
);
-- A re-ingested version reuses the vectors of an unchanged chunk body of the same tenant.
CREATE INDEX chunk_sentence_vectors_reuse ON chunk_sentence_vectors (organization_id, rooftop_id, model, body_sha256);

GRANT SELECT ON chunk_sentence_vectors TO rag_app;
ALTER TABLE chunk_sentence_vectors ENABLE ROW LEVEL SECURITY;
ALTER TABLE chunk_sentence_vectors FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON chunk_sentence_vectors
    USING (app_tenant_visible(organization_id, rooftop_id))
    WITH CHECK (app_tenant_visible(organization_id, rooftop_id));
