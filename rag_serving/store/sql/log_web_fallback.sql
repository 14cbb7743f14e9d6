-- Every question sent to a web search engine, with what came back (audited per tenant under row-level security).
INSERT INTO web_fallbacks (organization_id, rooftop_id, query, provider, results, error)
VALUES (%s, %s, %s, %s, %s, %s)
