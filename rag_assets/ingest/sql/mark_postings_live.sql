-- The postings of a document going live, in the same transaction as its status (the sparse leg reads only these).
UPDATE chunk_terms SET live = true WHERE document_id = %s
