-- A document version's status and size after its run, for the runner's one-line outcome.
SELECT status, page_count,
       (SELECT count(*) FROM chunks WHERE document_id = d.id) AS chunks,
       (SELECT count(*) FROM sections WHERE document_id = d.id) AS sections
FROM documents d WHERE id = %s
