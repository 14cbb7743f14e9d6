-- Per candidate chunk: its BM25 score (the sparse leg's functions, with the question's IDFs), BM25 length, stored
-- vector, the positions of the question's lexemes in it, and which of them occur in its title or heading path.
WITH q AS (
  SELECT * FROM unnest(%(terms)s::text[], %(idf)s::float8[]) AS q(term, idf)
)
SELECT c.id, c.bm25_length, c.embedding,
       (SELECT coalesce(sum(q.idf * bm25_tf(p.tf, c.bm25_length, %(avgdl)s, %(k1)s, %(b)s)), 0)
          FROM q JOIN chunk_terms p ON p.term = q.term AND p.chunk_id = c.id) AS bm25,
       (SELECT coalesce(jsonb_object_agg(t.lexeme, t.positions), '{}'::jsonb)
          FROM unnest(c.tsv) AS t WHERE t.lexeme = ANY(%(terms)s)) AS positions,
       (SELECT coalesce(array_agg(DISTINCT t.lexeme), '{}')
          FROM unnest(to_tsvector('english', coalesce(d.title, '') || ' ' || coalesce(s.heading_path, ''))) AS t
         WHERE t.lexeme = ANY(%(terms)s)) AS title_terms
FROM chunks c
JOIN documents d ON d.id = c.document_id
LEFT JOIN sections s ON s.id = c.section_id
WHERE c.organization_id = %(organization)s AND c.id = ANY(%(ids)s)
