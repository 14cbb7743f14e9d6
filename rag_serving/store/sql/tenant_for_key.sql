-- The tenant an active key grants (the request body never names one).
SELECT organization_id, rooftop_ids FROM api_keys WHERE key_sha256 = %s AND revoked_at IS NULL
