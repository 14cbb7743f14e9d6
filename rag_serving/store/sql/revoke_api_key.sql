UPDATE api_keys SET revoked_at = now() WHERE key_sha256 = %s AND revoked_at IS NULL
