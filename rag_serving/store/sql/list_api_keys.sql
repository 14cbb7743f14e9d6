-- Every key's tenant, label and dates, newest first; the first 8 hex digits of its hash identify it (never the key).
SELECT left(key_sha256, 8) AS id, organization_id, rooftop_ids, label, created_at, revoked_at FROM api_keys
ORDER BY created_at DESC
