-- Dense leg: cosine distance over the model's HNSW index. {dim} is the model's dimension (an
-- integer from the embedder, never user input); relaxed_order scans keep going until the LIMIT
-- is filled after filtering, then results are re-sorted exactly. Identical chunks (an unchanged paragraph in two
-- editions) share a rank, so what fusion makes of them never depends on their content-hash ids.
WITH hits AS MATERIALIZED (
  SELECT c.id, c.embedding::vector({dim}) <=> %(qvec)s::vector({dim}) AS distance
  FROM chunks c
  JOIN documents d ON d.id = c.document_id
  LEFT JOIN sections s ON s.id = c.section_id
  WHERE c.embedding_model = %(model)s
  {filters}
  ORDER BY c.embedding::vector({dim}) <=> %(qvec)s::vector({dim})
  LIMIT %(limit)s
)
SELECT id, 1 - distance AS score, rank() OVER (ORDER BY distance) AS rank
FROM hits ORDER BY distance, id
