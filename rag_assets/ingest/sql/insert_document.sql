INSERT INTO documents (id, organization_id, rooftop_id, source_path, sha256, file_name, media_type,
                       title, kind, published_on, pipeline_digest, status)
VALUES (%(id)s, %(organization_id)s, %(rooftop_id)s, %(source_path)s, %(sha256)s, %(file_name)s,
        %(media_type)s, %(title)s, %(kind)s, %(published_on)s, %(pipeline_digest)s, 'building')
ON CONFLICT (id) DO UPDATE SET status = 'building', error = NULL,
    title = EXCLUDED.title, kind = EXCLUDED.kind, published_on = EXCLUDED.published_on
WHERE documents.status IN ('building', 'failed', 'superseded')
