-- Documents, pages, sections, chunks and ingest errors. Every content row carries its tenant
-- (organization_id, rooftop_id) so row-level security can scope reads without joins.
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE documents (
    id               text PRIMARY KEY,          -- sha256(tenant | source | file sha256 | pipeline digest)
    organization_id  text NOT NULL,
    rooftop_id       text NOT NULL,
    source_path      text NOT NULL,             -- path relative to the tenant's folder, as registered
    sha256           text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    file_name        text NOT NULL,
    media_type       text NOT NULL,
    title            text NOT NULL,
    kind             text,
    published_on     date,
    page_count       integer,
    pipeline_digest  text NOT NULL,             -- chunking settings + tokenizer + code version
    status           text NOT NULL DEFAULT 'building'
                     CHECK (status IN ('building', 'live', 'failed', 'superseded')),
    registered_at    timestamptz NOT NULL DEFAULT now(),
    ingested_at      timestamptz,
    superseded_at    timestamptz,
    error            text
);
-- One live version per tenant and source: the publish step swaps versions in one transaction.
CREATE UNIQUE INDEX documents_one_live_per_source
    ON documents (organization_id, rooftop_id, source_path) WHERE status = 'live';
CREATE INDEX documents_sha256 ON documents (sha256);
CREATE INDEX documents_tenant ON documents (organization_id, rooftop_id, status);

CREATE TABLE pages (
    document_id      text NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    organization_id  text NOT NULL,
    rooftop_id       text NOT NULL,
    page_index       integer NOT NULL CHECK (page_index >= 1),   -- physical, 1-based: file.pdf#page=N
    page_label       text NOT NULL,                              -- printed label: "iii", "12"
    text             text NOT NULL,
    has_text_layer   boolean NOT NULL,
    ocr              boolean NOT NULL DEFAULT false,
    unreadable       boolean NOT NULL DEFAULT false,
    char_count       integer GENERATED ALWAYS AS (length(text)) STORED,
    PRIMARY KEY (document_id, page_index)
);

CREATE TABLE sections (
    id               text PRIMARY KEY,          -- sha256(document id | heading path | start offset)
    document_id      text NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    organization_id  text NOT NULL,
    rooftop_id       text NOT NULL,
    parent_id        text REFERENCES sections (id) ON DELETE CASCADE,
    ordinal          integer NOT NULL,
    level            integer NOT NULL CHECK (level >= 1),
    title            text NOT NULL,
    heading_path     text NOT NULL,             -- "3 Benefits › 3.2 Parental Leave"
    source           text NOT NULL CHECK (source IN ('outline', 'heading')),
    page_start       integer NOT NULL,
    page_end         integer NOT NULL,
    char_start       integer NOT NULL,          -- offset into pages.text of page_start
    char_end         integer NOT NULL,          -- offset into pages.text of page_end (exclusive)
    token_count      integer NOT NULL,
    CHECK (page_start <= page_end)
);
CREATE INDEX sections_document ON sections (document_id, ordinal);

CREATE TABLE chunks (
    id               text PRIMARY KEY,          -- sha256(document id | offsets | body)
    organization_id  text NOT NULL,
    rooftop_id       text NOT NULL,
    document_id      text NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    section_id       text REFERENCES sections (id) ON DELETE SET NULL,
    ordinal          integer NOT NULL,
    page_start       integer NOT NULL,
    page_end         integer NOT NULL,
    page_label_start text NOT NULL,
    page_label_end   text NOT NULL,
    kind             text,
    published_on     date,
    body             text NOT NULL,
    token_count      integer NOT NULL,
    char_start       integer NOT NULL,          -- offset into pages.text of page_start
    char_end         integer NOT NULL,          -- offset into pages.text of page_end (exclusive)
    sha256           text NOT NULL,             -- the source document's file sha256
    body_sha256      text NOT NULL,
    embedding        vector,
    embedding_model  text,
    tsv              tsvector GENERATED ALWAYS AS (to_tsvector('english', body)) STORED,
    CHECK (page_start <= page_end),
    UNIQUE (document_id, ordinal)
);
CREATE INDEX chunks_tenant ON chunks (organization_id, rooftop_id);
CREATE INDEX chunks_section ON chunks (section_id);

CREATE TABLE ingest_errors (
    id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    organization_id  text NOT NULL,
    rooftop_id       text NOT NULL,
    document_id      text,
    source_path      text NOT NULL,
    sha256           text,
    stage            text NOT NULL,             -- validate | extract | ocr | sections | chunks | publish
    severity         text NOT NULL CHECK (severity IN ('error', 'warning')),
    error_class      text NOT NULL,
    message          text NOT NULL,
    page_index       integer,
    run_id           text,
    occurred_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ingest_errors_tenant ON ingest_errors (organization_id, rooftop_id, occurred_at DESC);

-- The ingested files themselves, content-addressed, so any worker (another machine, a Kubernetes
-- pod) can rebuild a document from the database alone.
CREATE TABLE files (
    sha256      text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    size_bytes  bigint NOT NULL,
    content     bytea NOT NULL,
    stored_at   timestamptz NOT NULL DEFAULT now()
);
