"""Web fallback: the SearXNG adapter against a local server speaking its JSON format, the per-organization rule,
the rule that tenant-scoped questions never go out, and the fallback log, asserted at the database."""

import pytest
from fastapi import FastAPI, Request

from rag_serving.answer.evidence import Evidence, PassageEvidence, profile
from rag_serving.answer.websearch import SearxngSearch, WebSearchError, allowed_for, internal_reason, log_fallback
from rag_serving.store import bootstrap as db
from rag_serving.store.sessions import APP_ROLE, Database, Tenant
from rag_serving.store.web_rules import set_rule
from tests.servers import serve


def searxng_app(seen: list[dict]) -> FastAPI:
    app = FastAPI()

    @app.get("/search")
    def search(request: Request) -> dict:
        seen.append(dict(request.query_params))
        if request.query_params.get("q") == "boom":
            raise RuntimeError("engine failure")
        return {"query": request.query_params["q"], "number_of_results": 2, "results": [
            {"url": "https://example.org/chili", "title": "Vegetarian chili", "content": "Beans, peppers.", "engine": "ddg"},
            {"url": "https://example.org/more", "title": "More chili", "content": "", "engine": "ddg"},
            {"title": "no url, skipped"},
        ]}

    return app


@pytest.fixture(scope="module")
def searxng():
    seen: list[dict] = []
    with serve(searxng_app(seen), "/docs") as base:
        yield base, seen


def test_searxng_adapter_sends_q_and_format_json_and_reads_results(searxng):
    base, seen = searxng
    results = SearxngSearch(base).search("vegetarian chili recipe", k=5)
    assert seen[-1] == {"q": "vegetarian chili recipe", "format": "json"}
    assert [(r.title, r.url) for r in results] == [("Vegetarian chili", "https://example.org/chili"),
                                                  ("More chili", "https://example.org/more")]
    assert results[0].snippet == "Beans, peppers."


def test_searxng_server_error_is_a_web_search_error(searxng):
    with pytest.raises(WebSearchError, match="SearXNG"):
        SearxngSearch(searxng[0]).search("boom")


def test_no_rule_means_no_web(database_url):
    database = Database(_app(database_url), max_size=1)
    with database.session(Tenant("acme", ("hq",))) as session:
        assert allowed_for(session) is False
    database.close()


def _app(url: str) -> str:
    from psycopg.conninfo import make_conninfo

    return make_conninfo(url, user=APP_ROLE)


def test_org_rule_allows_and_rooftop_rule_overrides(database_url):
    with db.connect(database_url, autocommit=True) as conn:
        set_rule(conn, "acme", None, True, "public questions only")
        set_rule(conn, "acme", "north-yard", False, "site data")
        set_rule(conn, "globex", None, True, "")
    database = Database(_app(database_url), max_size=1)
    try:
        for tenant, expected in [(Tenant("acme", ("hq",)), True), (Tenant("acme", ("north-yard",)), False),
                                 (Tenant("acme", ("hq", "north-yard")), False), (Tenant("initech", ("x",)), False)]:
            with database.session(tenant) as session:
                assert allowed_for(session) is expected, tenant
    finally:
        database.close()


def test_fallbacks_are_logged_and_only_visible_to_their_organization(database_url):
    database = Database(_app(database_url), max_size=1)
    try:
        with database.session(Tenant("acme", ("hq",))) as session:
            log_fallback(session, "vegetarian chili recipe", "searxng", 2, None)
        with database.session(Tenant("globex", ("main",))) as session:
            assert session.execute("SELECT count(*) AS n FROM web_fallbacks").fetchone()["n"] == 0
        with database.session(Tenant("acme", ("hq",))) as session:
            row = session.execute("SELECT organization_id, rooftop_id, query, provider, results FROM web_fallbacks").fetchone()
    finally:
        database.close()
    assert row == {"organization_id": "acme", "rooftop_id": "hq", "query": "vegetarian chili recipe",
                   "provider": "searxng", "results": 2}


def _evidence(question: str, coverage: float) -> Evidence:
    e = Evidence(profile(question))
    e.passages.append(PassageEvidence(hit=None, rank=1, coverage=coverage, kind_ok=True, missing_strict=(),
                                      best_cosine=0.1, score=0.1))
    return e


def test_questions_about_the_tenants_material_never_go_out():
    tenant = Tenant("acme", ("north-yard",))
    assert "names the tenant" in internal_reason("What's Acme's renewal date?", _evidence("What's Acme's renewal date?", 0.0), tenant)
    assert "identifiers" in internal_reason("What does E-104 mean?", _evidence("What does E-104 mean?", 0.0), tenant)
    assert "cover" in internal_reason("What is the gate code?", _evidence("What is the gate code?", 0.67), tenant)
    assert internal_reason("Recipe for vegetarian chili?", _evidence("Recipe for vegetarian chili?", 0.0), tenant) is None
