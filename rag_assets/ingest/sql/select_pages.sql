SELECT page_index, page_label, text FROM pages WHERE document_id = %s ORDER BY page_index
