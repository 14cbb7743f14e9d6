-- The active key a page link names (by its hash's first 16 hex digits): its hash signs the link, its tenant scopes it.
SELECT key_sha256, organization_id, rooftop_ids FROM app_link_key(%s)
