-- Settings for the rest of this request's transaction, as SET LOCAL gives, in one round trip: names and values are
-- parallel arrays (names from the code, never from a request).
SELECT count(set_config(s.name, s.value, true)) AS applied
FROM unnest(%(names)s::text[], %(values)s::text[]) AS s(name, value)
