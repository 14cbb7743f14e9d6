INSERT INTO sections (id, document_id, organization_id, rooftop_id, parent_id, ordinal, level, title,
                      heading_path, source, page_start, page_end, char_start, char_end, token_count)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
