-- Embedding models other than the query's of the live documents the tenant may see (a query must embed with the
-- index's model). Two ranges around the query's model, so the partial index documents_live_models answers with
-- nothing to read when every document uses it.
SELECT DISTINCT embedding_model FROM documents
WHERE status = 'live' AND (embedding_model < %(model)s OR embedding_model > %(model)s)
