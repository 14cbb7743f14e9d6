-- The entry's one chunk (title. text), embedded; postings and lengths come from the ingest's own SQL afterwards.
INSERT INTO chunks (id, organization_id, rooftop_id, document_id, ordinal, page_start, page_end, page_label_start,
                    page_label_end, kind, body, token_count, char_start, char_end, sha256, body_sha256, embedding,
                    embedding_model)
VALUES (%(id)s, %(org)s, %(rooftop)s, %(id)s, 0, 1, 1, '1', '1', 'abstract', %(body)s, 0, 0, 0, %(sha)s, %(sha)s,
        %(vector)s, %(model)s)
