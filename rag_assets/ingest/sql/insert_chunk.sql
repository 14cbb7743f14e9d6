INSERT INTO chunks (id, organization_id, rooftop_id, document_id, section_id, ordinal, page_start, page_end,
                    page_label_start, page_label_end, kind, published_on, body, token_count,
                    char_start, char_end, sha256, body_sha256)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
