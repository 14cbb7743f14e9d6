-- The web fallback rules that apply to a tenant: its organization's and its rooftops' own. A rooftop's rule beats
-- the organization's; no row means not allowed.
SELECT rooftop_id, allowed FROM web_search_rules
WHERE organization_id = %(org)s AND (rooftop_id IS NULL OR rooftop_id = ANY(%(rooftops)s))
