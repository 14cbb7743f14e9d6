-- Allow or deny the web fallback for an organization (rooftop NULL) or one of its rooftops.
INSERT INTO web_search_rules (organization_id, rooftop_id, allowed, note) VALUES (%s, %s, %s, %s)
ON CONFLICT (organization_id, rooftop_id) DO UPDATE SET allowed = EXCLUDED.allowed, note = EXCLUDED.note,
    updated_at = now()
