-- Every web fallback rule, organization-wide ones first.
SELECT organization_id, rooftop_id, allowed, note, updated_at FROM web_search_rules ORDER BY 1, 2 NULLS FIRST
