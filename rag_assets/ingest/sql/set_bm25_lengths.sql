UPDATE chunks c
SET bm25_length = (SELECT coalesce(sum(coalesce(array_length(t.positions, 1), 1)), 0) FROM unnest(c.tsv) AS t)
WHERE c.document_id = ANY(%s)
