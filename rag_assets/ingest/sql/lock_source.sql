-- Lock the source's live row (if any) so two publishers of one source serialize.
SELECT id FROM documents
WHERE organization_id = %s AND rooftop_id = %s AND source_path = %s AND status = 'live'
FOR UPDATE
