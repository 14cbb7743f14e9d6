"""SQL the ingest pipeline runs, as named parameterized constants."""

INSERT_FILE = """
INSERT INTO files (sha256, size_bytes, content) VALUES (%s, %s, %s)
ON CONFLICT (sha256) DO NOTHING"""

SELECT_FILE = "SELECT content FROM files WHERE sha256 = %s"

SELECT_DOCUMENT = "SELECT * FROM documents WHERE id = %s"

SELECT_LIVE_FOR_SOURCE = """
SELECT id, sha256, pipeline_digest FROM documents
WHERE organization_id = %s AND rooftop_id = %s AND source_path = %s AND status = 'live'"""

INSERT_DOCUMENT = """
INSERT INTO documents (id, organization_id, rooftop_id, source_path, sha256, file_name, media_type,
                       title, kind, published_on, pipeline_digest, status)
VALUES (%(id)s, %(organization_id)s, %(rooftop_id)s, %(source_path)s, %(sha256)s, %(file_name)s,
        %(media_type)s, %(title)s, %(kind)s, %(published_on)s, %(pipeline_digest)s, 'building')
ON CONFLICT (id) DO UPDATE SET status = 'building', error = NULL,
    title = EXCLUDED.title, kind = EXCLUDED.kind, published_on = EXCLUDED.published_on
WHERE documents.status IN ('building', 'failed', 'superseded')"""

SELECT_PENDING_FOR_FILE = """
SELECT * FROM documents WHERE sha256 = %s AND status IN ('building', 'failed') ORDER BY id"""

SELECT_BUILDING_OR_LIVE_FOR_FILE = """
SELECT * FROM documents WHERE sha256 = %s AND status IN ('building', 'live') ORDER BY id"""

UPDATE_PAGE_COUNT = "UPDATE documents SET page_count = %s WHERE id = %s"

# A title from the PDF's metadata beats one made up from the file name, never one a user gave.
UPDATE_TITLE = "UPDATE documents SET title = %s WHERE id = %s"

MARK_FAILED = "UPDATE documents SET status = 'failed', error = %s WHERE id = %s AND status <> 'live'"

MARK_BUILDING = "UPDATE documents SET status = 'building', error = NULL WHERE id = %s AND status = 'failed'"

INSERT_ERROR = """
INSERT INTO ingest_errors (organization_id, rooftop_id, document_id, source_path, sha256, stage,
                           severity, error_class, message, page_index, run_id)
VALUES (%(organization_id)s, %(rooftop_id)s, %(document_id)s, %(source_path)s, %(sha256)s, %(stage)s,
        %(severity)s, %(error_class)s, %(message)s, %(page_index)s, %(run_id)s)"""

# Rebuilding a version that never went live: clear what an earlier, interrupted attempt wrote.
DELETE_PAGES = "DELETE FROM pages WHERE document_id = %s"
DELETE_SECTIONS = "DELETE FROM sections WHERE document_id = %s"
DELETE_CHUNKS = "DELETE FROM chunks WHERE document_id = %s"

INSERT_PAGE = """
INSERT INTO pages (document_id, organization_id, rooftop_id, page_index, page_label, text,
                   has_text_layer, ocr, unreadable)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"""

SELECT_PAGES = """
SELECT page_index, page_label, text FROM pages WHERE document_id = %s ORDER BY page_index"""

INSERT_SECTION = """
INSERT INTO sections (id, document_id, organization_id, rooftop_id, parent_id, ordinal, level, title,
                      heading_path, source, page_start, page_end, char_start, char_end, token_count)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"""

SELECT_SECTIONS = """
SELECT id, ordinal, parent_id, level, title, heading_path, source, page_start, page_end, char_start, char_end
FROM sections WHERE document_id = %s ORDER BY ordinal"""

INSERT_CHUNK = """
INSERT INTO chunks (id, organization_id, rooftop_id, document_id, section_id, ordinal, page_start, page_end,
                    page_label_start, page_label_end, kind, published_on, body, token_count,
                    char_start, char_end, sha256, body_sha256)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"""

# Lock the source's live row (if any) so two publishers of one source serialize.
LOCK_SOURCE = """
SELECT id FROM documents
WHERE organization_id = %s AND rooftop_id = %s AND source_path = %s AND status = 'live'
FOR UPDATE"""

SUPERSEDE_LIVE = """
UPDATE documents SET status = 'superseded', superseded_at = now()
WHERE organization_id = %s AND rooftop_id = %s AND source_path = %s AND status = 'live' AND id <> %s
RETURNING id"""

# A superseded version keeps its documents row (audit trail) but not its searchable rows.
DELETE_SUPERSEDED_PAGES = "DELETE FROM pages WHERE document_id = ANY(%s)"
DELETE_SUPERSEDED_CHUNKS = "DELETE FROM chunks WHERE document_id = ANY(%s)"
DELETE_SUPERSEDED_SECTIONS = "DELETE FROM sections WHERE document_id = ANY(%s)"

MARK_LIVE = """
UPDATE documents SET status = 'live', ingested_at = now(), error = NULL
WHERE id = %s AND status = 'building'"""

SELECT_CHUNK_BODIES = "SELECT id, body FROM chunks WHERE document_id = %s ORDER BY ordinal"

SET_CHUNK_EMBEDDING = "UPDATE chunks SET embedding = %s, embedding_model = %s WHERE id = %s"

SELECT_CHUNKS_FOR_TOKEN_VECTORS = """
SELECT c.id, c.body, c.body_sha256, c.organization_id, c.rooftop_id FROM chunks c
WHERE c.document_id = %(document)s
  AND NOT EXISTS (SELECT 1 FROM chunk_token_vectors v WHERE v.chunk_id = c.id AND v.model = %(model)s)
ORDER BY c.ordinal"""

SELECT_LIVE_CHUNKS_WITHOUT_TOKEN_VECTORS = """
SELECT c.id, c.body, c.body_sha256, c.organization_id, c.rooftop_id FROM chunks c
JOIN documents d ON d.id = c.document_id
WHERE d.status = 'live'
  AND NOT EXISTS (SELECT 1 FROM chunk_token_vectors v WHERE v.chunk_id = c.id AND v.model = %(model)s)
ORDER BY c.id"""

# An unchanged chunk body of the same tenant (e.g. the live version being replaced) keeps its vectors.
COPY_TOKEN_VECTORS = """
INSERT INTO chunk_token_vectors (chunk_id, model, organization_id, rooftop_id, body_sha256, tokens, dim, vectors, scales)
SELECT DISTINCT ON (c.id) c.id, v.model, c.organization_id, c.rooftop_id, c.body_sha256, v.tokens, v.dim, v.vectors, v.scales
FROM chunks c
JOIN chunk_token_vectors v ON v.organization_id = c.organization_id AND v.rooftop_id = c.rooftop_id
  AND v.body_sha256 = c.body_sha256 AND v.model = %(model)s
WHERE c.document_id = %(document)s
  AND NOT EXISTS (SELECT 1 FROM chunk_token_vectors w WHERE w.chunk_id = c.id AND w.model = %(model)s)
ORDER BY c.id
ON CONFLICT DO NOTHING"""

INSERT_TOKEN_VECTORS = """
INSERT INTO chunk_token_vectors (chunk_id, model, organization_id, rooftop_id, body_sha256, tokens, dim, vectors, scales)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)
ON CONFLICT DO NOTHING"""

SET_DOCUMENT_EMBEDDING_MODEL = "UPDATE documents SET embedding_model = %s WHERE id = %s"

DELETE_POSTINGS = "DELETE FROM chunk_terms WHERE document_id = %s"

# BM25 postings straight from the generated tsvector: one row per (lexeme, chunk), tf = its positions.
INSERT_POSTINGS = """
INSERT INTO chunk_terms (term, chunk_id, document_id, organization_id, rooftop_id, tf)
SELECT t.lexeme, c.id, c.document_id, c.organization_id, c.rooftop_id, coalesce(array_length(t.positions, 1), 1)
FROM chunks c, unnest(c.tsv) AS t
WHERE c.document_id = ANY(%s)"""

SET_BM25_LENGTHS = """
UPDATE chunks c
SET bm25_length = (SELECT coalesce(sum(coalesce(array_length(t.positions, 1), 1)), 0) FROM unnest(c.tsv) AS t)
WHERE c.document_id = ANY(%s)"""

COUNT_POSTINGS = "SELECT count(*) AS n FROM chunk_terms WHERE document_id = %s"

# Serializes index creation between concurrent partition runs.
INDEX_LOCK_KEY = 0x52414731

REFRESH_BM25_STATS = "SELECT refresh_bm25_stats(%s, %s)"
