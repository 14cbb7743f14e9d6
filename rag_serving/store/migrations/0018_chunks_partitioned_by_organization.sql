-- Chunks partitioned by organization, 32 ways by hash (issue #15). A tenant's dense and sparse searches ran in graphs
-- shared by every organization and filtered to one, so a tenant of 10k chunks on a server of 100k paid for the 100k
-- (dense p95 23.8 ms, against 8.8 for one tenant of 100k). Each partition has its own HNSW graphs, and row-level
-- security's organization setting prunes every other partition when a statement starts. Hash, not a partition per
-- organization: a statement pruned at run time is still planned over every partition, and 500 of them cost ~25 ms of
-- planning per statement; 32 is Citus's default shard count, whose distribution column this same key would be.
-- Tenants whose names hash alike share a partition and its graphs. Timings are in docs/decisions.md.

ALTER TABLE chunks RENAME TO chunks_unpartitioned;
ALTER INDEX chunks_pkey RENAME TO chunks_unpartitioned_pkey;
ALTER TABLE chunks_unpartitioned RENAME CONSTRAINT chunks_document_id_ordinal_key TO chunks_unpartitioned_document_ordinal;
ALTER TABLE chunks_unpartitioned RENAME CONSTRAINT chunks_document_id_fkey TO chunks_unpartitioned_document_id_fkey;
ALTER TABLE chunks_unpartitioned RENAME CONSTRAINT chunks_section_id_fkey TO chunks_unpartitioned_section_id_fkey;

CREATE TABLE chunks (LIKE chunks_unpartitioned INCLUDING DEFAULTS INCLUDING GENERATED INCLUDING CONSTRAINTS
                     INCLUDING STORAGE INCLUDING COMPRESSION)
PARTITION BY HASH (organization_id);

DO $$
BEGIN
    FOR r IN 0..31 LOOP
        EXECUTE format('CREATE TABLE %I PARTITION OF chunks FOR VALUES WITH (MODULUS 32, REMAINDER %s)',
                       'chunks_p' || lpad(r::text, 2, '0'), r);
    END LOOP;
END
$$;

INSERT INTO chunks (id, organization_id, rooftop_id, document_id, section_id, ordinal, page_start, page_end,
                    page_label_start, page_label_end, kind, published_on, body, token_count, char_start, char_end,
                    sha256, body_sha256, embedding, embedding_model, bm25_length, bm25_vector)
SELECT id, organization_id, rooftop_id, document_id, section_id, ordinal, page_start, page_end,
       page_label_start, page_label_end, kind, published_on, body, token_count, char_start, char_end,
       sha256, body_sha256, embedding, embedding_model, bm25_length, bm25_vector
FROM chunks_unpartitioned;

-- A unique key of a partitioned table holds its partition key; a chunk id is a hash that names its document, so the
-- organization adds no new constraint.
ALTER TABLE chunks ADD PRIMARY KEY (organization_id, id);
ALTER TABLE chunks ADD CONSTRAINT chunks_document_id_ordinal_key UNIQUE (organization_id, document_id, ordinal);
ALTER TABLE chunks ADD CONSTRAINT chunks_document_id_fkey FOREIGN KEY (document_id) REFERENCES documents (id) ON DELETE CASCADE;
ALTER TABLE chunks ADD CONSTRAINT chunks_section_id_fkey FOREIGN KEY (section_id) REFERENCES sections (id)
    ON DELETE SET NULL;
CREATE INDEX chunks_tenant_p ON chunks (organization_id, rooftop_id);
CREATE INDEX chunks_section_p ON chunks (section_id);
CREATE INDEX chunks_document_p ON chunks (document_id);
CREATE INDEX chunks_tsv_p ON chunks USING gin (tsv);

-- Rows that point at a chunk point at its partition's key.
DO $$
DECLARE
    t text;
BEGIN
    FOREACH t IN ARRAY ARRAY['chunk_terms', 'chunk_token_vectors', 'chunk_sentence_vectors'] LOOP
        EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', t, t || '_chunk_id_fkey');
        EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I FOREIGN KEY (organization_id, chunk_id) '
                       'REFERENCES chunks (organization_id, id) ON DELETE CASCADE', t, t || '_chunk_id_fkey');
    END LOOP;
END
$$;

-- Both HNSW graphs, built once the rows are in; each partition gets its own.
SET LOCAL maintenance_work_mem = '1GB';
DO $$
DECLARE
    i record;
BEGIN
    FOR i IN SELECT c.relname AS name, pg_get_indexdef(c.oid) AS ddl
             FROM pg_index x JOIN pg_class c ON c.oid = x.indexrelid
             WHERE x.indrelid = 'chunks_unpartitioned'::regclass
               AND (c.relname LIKE 'chunks\_hnsw\_%' OR c.relname = 'chunks_bm25_hnsw')
    LOOP
        EXECUTE format('DROP INDEX %I', i.name);
        EXECUTE replace(i.ddl, ' ON public.chunks_unpartitioned ', ' ON public.chunks ');
    END LOOP;
END
$$;

DROP TABLE chunks_unpartitioned;
ALTER INDEX chunks_tenant_p RENAME TO chunks_tenant;
ALTER INDEX chunks_section_p RENAME TO chunks_section;
ALTER INDEX chunks_document_p RENAME TO chunks_document;
ALTER INDEX chunks_tsv_p RENAME TO chunks_tsv;

-- The parent's policy guards every read through it; the partitions grant nothing, so no role reads around it.
ALTER TABLE chunks ENABLE ROW LEVEL SECURITY;
ALTER TABLE chunks FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_isolation ON chunks
    USING (organization_id = (SELECT current_setting('app.organization_id', true))
           AND rooftop_id = ANY ((SELECT string_to_array(current_setting('app.rooftop_ids', true), ','))::text[]))
    WITH CHECK (organization_id = (SELECT current_setting('app.organization_id', true))
           AND rooftop_id = ANY ((SELECT string_to_array(current_setting('app.rooftop_ids', true), ','))::text[]));
GRANT SELECT ON chunks TO rag_app;
