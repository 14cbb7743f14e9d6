-- BM25 postings straight from the generated tsvector: one row per (lexeme, chunk), tf = its positions, with the
-- chunk's length (as set_bm25_columns counts it) and whether its document is live (publish sets it later).
INSERT INTO chunk_terms (term, chunk_id, document_id, organization_id, rooftop_id, tf, length, live)
SELECT t.lexeme, c.id, c.document_id, c.organization_id, c.rooftop_id, coalesce(array_length(t.positions, 1), 1),
       (SELECT coalesce(sum(coalesce(array_length(u.positions, 1), 1)), 0) FROM unnest(c.tsv) AS u),
       d.status = 'live'
FROM chunks c JOIN documents d ON d.id = c.document_id, unnest(c.tsv) AS t
WHERE c.document_id = ANY(%s)
