SELECT count(*) AS n FROM chunk_terms WHERE document_id = %s
