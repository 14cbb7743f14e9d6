-- BM25 without a join per posting: each posting carries its chunk's length and whether its document is live, and
-- a partial covering index serves a tenant's live postings of the question's terms in index order. The sparse leg
-- read every posting of a term across tenants and joined documents, chunks and sections for each (seconds at
-- 100k chunks, issue #15). Ingest writes both columns (insert_postings), publish sets `live` with the status.
ALTER TABLE chunk_terms ADD COLUMN length integer;
ALTER TABLE chunk_terms ADD COLUMN live boolean NOT NULL DEFAULT false;

UPDATE chunk_terms p SET length = c.bm25_length, live = (d.status = 'live')
FROM chunks c JOIN documents d ON d.id = c.document_id
WHERE c.id = p.chunk_id;

ALTER TABLE chunk_terms ALTER COLUMN length SET NOT NULL;
CREATE INDEX chunk_terms_live ON chunk_terms (organization_id, term) INCLUDE (rooftop_id, chunk_id, tf, length)
    WHERE live;
