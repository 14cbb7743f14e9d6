-- Active keys whose id (the first 8 hex digits of the hash, as `rag keys list` shows) is the one given; locked, so the
-- count and the revoke that follows see the same rows.
SELECT key_sha256 FROM api_keys WHERE left(key_sha256, 8) = %s AND revoked_at IS NULL FOR UPDATE
