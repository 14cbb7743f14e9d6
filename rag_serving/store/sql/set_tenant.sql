-- The tenant of this transaction: row-level security policies read these two settings (transaction-local).
SELECT set_config('app.organization_id', %s, true), set_config('app.rooftop_ids', %s, true)
