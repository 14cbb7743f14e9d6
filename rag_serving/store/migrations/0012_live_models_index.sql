-- Every dense search first checks that no live document of the tenant was embedded by another model than the
-- query's. Without an index that read every live document (one per chunk in the latency benchmark: ~40 ms at 100k);
-- with it, two empty index ranges (other_live_models.sql).
CREATE INDEX documents_live_models ON documents (organization_id, embedding_model) WHERE status = 'live';
