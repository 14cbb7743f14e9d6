-- BM25 postings straight from the generated tsvector: one row per (lexeme, chunk), tf = its positions.
INSERT INTO chunk_terms (term, chunk_id, document_id, organization_id, rooftop_id, tf)
SELECT t.lexeme, c.id, c.document_id, c.organization_id, c.rooftop_id, coalesce(array_length(t.positions, 1), 1)
FROM chunks c, unnest(c.tsv) AS t
WHERE c.document_id = ANY(%s)
