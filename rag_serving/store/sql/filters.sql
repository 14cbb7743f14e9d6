  AND c.organization_id = %(organization)s
  AND d.status = 'live'
  AND (%(kinds)s::text[] IS NULL OR c.kind = ANY(%(kinds)s::text[]))
  AND (%(published_from)s::date IS NULL OR c.published_on >= %(published_from)s::date)
  AND (%(published_to)s::date IS NULL OR c.published_on <= %(published_to)s::date)
  AND (%(documents)s::text[] IS NULL OR d.id = ANY(%(documents)s::text[]) OR d.source_path = ANY(%(documents)s::text[]))
  AND (%(section)s::text IS NULL OR starts_with(s.heading_path, %(section)s::text))
