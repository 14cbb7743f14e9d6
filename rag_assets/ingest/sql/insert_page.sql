INSERT INTO pages (document_id, organization_id, rooftop_id, page_index, page_label, text,
                   has_text_layer, ocr, unreadable)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)
