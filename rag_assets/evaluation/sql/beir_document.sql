-- One BEIR corpus entry as a live one-page document (no file bytes: the text is the document).
INSERT INTO documents (id, organization_id, rooftop_id, source_path, sha256, file_name, media_type, title, kind,
                       pipeline_digest, status, embedding_model)
VALUES (%(id)s, %(org)s, %(rooftop)s, %(id)s, %(sha)s, %(id)s, 'text/plain', %(title)s, 'abstract', 'beir', 'live',
        %(model)s)
