-- One page of a document the tenant can see, with its file's bytes (row-level security scopes all three tables).
SELECT d.id AS document_id, d.title, d.source_path, d.media_type, d.page_count, p.page_index, p.page_label, p.text,
       f.content
FROM documents d
JOIN pages p ON p.document_id = d.id AND p.page_index = %(page)s
LEFT JOIN files f ON f.sha256 = d.sha256
WHERE d.id = %(document)s
