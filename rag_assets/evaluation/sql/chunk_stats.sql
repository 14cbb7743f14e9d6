-- Size of the live index a sweep setting built.
SELECT count(*) AS chunks, coalesce(avg(c.token_count), 0)::float8 AS mean_tokens
FROM chunks c JOIN documents d ON d.id = c.document_id WHERE d.status = 'live'
