SELECT id, ordinal, parent_id, level, title, heading_path, source, page_start, page_end, char_start, char_end
FROM sections WHERE document_id = %s ORDER BY ordinal
