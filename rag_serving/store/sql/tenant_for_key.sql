-- The tenant an active key grants (the request body never names one), through the one function the serving role
-- may call on api_keys.
SELECT organization_id, rooftop_ids FROM app_tenant_for_key(%s)
