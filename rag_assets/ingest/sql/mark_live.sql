UPDATE documents SET status = 'live', ingested_at = now(), error = NULL
WHERE id = %s AND status = 'building'
