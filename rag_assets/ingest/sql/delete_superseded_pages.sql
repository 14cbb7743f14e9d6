-- A superseded version keeps its documents row (audit trail) but not its searchable rows.
DELETE FROM pages WHERE document_id = ANY(%s)
