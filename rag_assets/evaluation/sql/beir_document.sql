-- A document of BEIR-style entries, live, with one page per chunk (no file bytes: the text is the document).
INSERT INTO documents (id, organization_id, rooftop_id, source_path, sha256, file_name, media_type, title, kind,
                       pipeline_digest, status, embedding_model)
VALUES (%(document)s, %(org)s, %(rooftop)s, %(document)s, %(sha)s, %(document)s, 'text/plain', %(title)s, 'abstract',
        'beir', 'live', %(model)s)
