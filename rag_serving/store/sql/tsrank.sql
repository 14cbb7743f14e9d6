-- Second sparse option: PostgreSQL's own cover-density ranking over the GIN-indexed tsvector,
-- with the question's lexemes OR-ed (plainto_tsquery would require every word).
WITH q AS (
  SELECT to_tsquery('simple', string_agg('''' || replace(replace(t.lexeme, '\', '\\'), '''', '''''') || '''', ' | ')) AS query
  FROM unnest(to_tsvector('english', %(question)s)) AS t
)
SELECT c.id, ts_rank_cd(c.tsv, q.query)::float8 AS score,
       rank() OVER (ORDER BY ts_rank_cd(c.tsv, q.query) DESC) AS rank
FROM chunks c
JOIN documents d ON d.id = c.document_id
LEFT JOIN sections s ON s.id = c.section_id
CROSS JOIN q
WHERE c.tsv @@ q.query
{filters}
ORDER BY score DESC, c.id
LIMIT %(limit)s
