-- Web fallback is off unless a row here allows it for an organization (rooftop_id NULL: every rooftop)
-- or for one rooftop (collection). Every question sent out is logged in web_fallbacks.
CREATE TABLE web_search_rules (
    organization_id text NOT NULL,
    rooftop_id      text,
    allowed         boolean NOT NULL,
    note            text NOT NULL DEFAULT '',
    updated_at      timestamptz NOT NULL DEFAULT now(),
    UNIQUE NULLS NOT DISTINCT (organization_id, rooftop_id)
);

CREATE TABLE web_fallbacks (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    created_at      timestamptz NOT NULL DEFAULT now(),
    organization_id text NOT NULL,
    rooftop_id      text NOT NULL,      -- the tenant's rooftops, comma-separated
    query           text NOT NULL,      -- exactly what left the building
    provider        text NOT NULL,
    results         integer NOT NULL,
    error           text
);
CREATE INDEX web_fallbacks_org ON web_fallbacks (organization_id, created_at DESC);

GRANT SELECT ON web_search_rules TO rag_app;
GRANT SELECT, INSERT ON web_fallbacks TO rag_app;
ALTER TABLE web_search_rules ENABLE ROW LEVEL SECURITY;
ALTER TABLE web_search_rules FORCE ROW LEVEL SECURITY;
ALTER TABLE web_fallbacks ENABLE ROW LEVEL SECURITY;
ALTER TABLE web_fallbacks FORCE ROW LEVEL SECURITY;
CREATE POLICY tenant_rules ON web_search_rules
    USING (organization_id = current_setting('app.organization_id', true));
CREATE POLICY tenant_isolation ON web_fallbacks
    USING (organization_id = current_setting('app.organization_id', true))
    WITH CHECK (organization_id = current_setting('app.organization_id', true));
