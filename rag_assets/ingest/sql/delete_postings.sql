DELETE FROM chunk_terms WHERE document_id = %s
