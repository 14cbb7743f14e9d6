UPDATE documents SET status = 'superseded', superseded_at = now()
WHERE organization_id = %s AND rooftop_id = %s AND source_path = %s AND status = 'live' AND id <> %s
RETURNING id
