-- Per candidate chunk: BM25 length, stored vector, positions of the question's lexemes in the
-- chunk, and which of them occur in its document title or heading path.
SELECT c.id, c.bm25_length, c.embedding,
       (SELECT coalesce(jsonb_object_agg(t.lexeme, t.positions), '{}'::jsonb)
          FROM unnest(c.tsv) AS t WHERE t.lexeme = ANY(%(terms)s)) AS positions,
       (SELECT coalesce(array_agg(DISTINCT t.lexeme), '{}')
          FROM unnest(to_tsvector('english', coalesce(d.title, '') || ' ' || coalesce(s.heading_path, ''))) AS t
         WHERE t.lexeme = ANY(%(terms)s)) AS title_terms
FROM chunks c
JOIN documents d ON d.id = c.document_id
LEFT JOIN sections s ON s.id = c.section_id
WHERE c.id = ANY(%(ids)s)
