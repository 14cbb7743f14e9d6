-- A new API key: only its SHA-256 is stored, with the tenant it grants.
INSERT INTO api_keys (key_sha256, organization_id, rooftop_ids, label) VALUES (%s, %s, %s, %s)
