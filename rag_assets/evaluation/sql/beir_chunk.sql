-- One entry as a chunk (title. text) of its document, on its own page, embedded; postings and lengths come from the
-- ingest's own SQL afterwards.
INSERT INTO chunks (id, organization_id, rooftop_id, document_id, ordinal, page_start, page_end, page_label_start,
                    page_label_end, kind, body, token_count, char_start, char_end, sha256, body_sha256, embedding,
                    embedding_model)
VALUES (%(id)s, %(org)s, %(rooftop)s, %(document)s, %(ordinal)s, %(ordinal)s + 1, %(ordinal)s + 1,
        (%(ordinal)s + 1)::text, (%(ordinal)s + 1)::text, 'abstract', %(body)s, 0, 0, 0, %(sha)s, %(sha)s, %(vector)s,
        %(model)s)
