"""What an app developer relies on: one error body, request ids, the security scheme, typed models, CORS, local docs."""

import re

import httpx

from tests.rag_serving.api.conftest import ask

PROBLEM_KEYS = {"type", "title", "status", "detail", "errors", "request_id"}


def test_every_error_is_one_problem_body_carrying_the_request_id(base, keys):
    responses = [
        httpx.post(f"{base}/query", json={"question": "leave"}),  # 401
        httpx.get(f"{base}/no-such-route"),  # 404
        httpx.get(f"{base}/query"),  # 405
        ask(base, keys["acme"], "   "),  # 422 from a validator
        ask(base, keys["acme"], "why " * 100),  # 422 raised by the route
    ]
    for r in responses:
        body = r.json()
        assert r.headers["content-type"] == "application/problem+json", r.text
        assert set(body) == PROBLEM_KEYS and body["status"] == r.status_code, body
        assert body["request_id"] == r.headers["x-request-id"]
    assert [r.status_code for r in responses] == [401, 404, 405, 422, 422]


def test_a_validation_error_names_each_field_and_never_echoes_the_input(base, keys):
    r = httpx.post(f"{base}/retrieve", json={"question": "secret-words", "k": 0, "mode": "x"},
                   headers={"X-API-Key": keys["acme"]})
    body = r.json()
    assert r.status_code == 422 and {tuple(e["loc"]) for e in body["errors"]} == {("body", "k"), ("body", "mode")}
    assert "secret-words" not in r.text and body["detail"].split(":")[0] in ("k", "mode")


def test_a_clients_request_id_comes_back_and_a_malformed_one_is_replaced(base):
    assert httpx.get(f"{base}/healthz", headers={"X-Request-ID": "trace-42.a"}).headers["x-request-id"] == "trace-42.a"
    for bad in ("has spaces", "x" * 200, "<script>"):
        returned = httpx.get(f"{base}/healthz", headers={"X-Request-ID": bad}).headers["x-request-id"]
        assert re.fullmatch(r"[0-9a-f]{32}", returned)


def test_openapi_declares_both_key_schemes_on_every_tenant_route(base):
    spec = httpx.get(f"{base}/openapi.json").json()
    assert spec["components"]["securitySchemes"] == {
        "bearer": {"type": "http", "scheme": "bearer", "description": "an API key from `rag keys create`"},
        "apiKey": {"type": "apiKey", "in": "header", "name": "X-API-Key",
                   "description": "the same API key, in its own header"},
    }
    for path in ("/query", "/retrieve", "/query/stream", "/stats"):
        operation = next(iter(spec["paths"][path].values()))
        assert operation["security"] == [{"bearer": []}, {"apiKey": []}], path


def test_openapi_documents_every_error_with_the_problem_body(base):
    spec = httpx.get(f"{base}/openapi.json").json()
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            errors = {s: r for s, r in operation["responses"].items() if not s.startswith("2")}
            if operation.get("security"):
                assert "401" in errors, (method, path)
            for status, response in errors.items():
                schema = response["content"]["application/problem+json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/Problem"}, (method, path, status)


def test_openapi_types_every_json_response(base):
    spec = httpx.get(f"{base}/openapi.json").json()
    refs = {path: op["responses"]["200"]["content"].get("application/json", {}).get("schema", {}).get("$ref")
            for path, ops in spec["paths"].items() for op in ops.values()}
    assert refs["/healthz"].endswith("/Health") and refs["/stats"].endswith("/Stats")
    assert refs["/query"].endswith("/QueryResponse")
    query = spec["components"]["schemas"]["QueryResponse"]["properties"]
    assert query["evidence"]["anyOf"][0]["$ref"].endswith("/Evidence")
    assert query["answer"]["anyOf"][0]["$ref"].endswith("/AnswerOut")
    assert "text" in spec["components"]["schemas"]["AnswerOut"]["properties"]


def test_swagger_ui_loads_from_the_server_itself(base):
    page = httpx.get(f"{base}/docs").text
    assets = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert assets and all(a.startswith("/") for a in assets), assets  # no CDN: the page works offline
    for asset in assets:
        assert httpx.get(f"{base}{asset}").status_code == 200, asset


def test_cors_allows_the_configured_origin_and_no_other(base):
    preflight = {"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,content-type"}
    allowed = httpx.options(f"{base}/query", headers={"Origin": "https://intranet.example.com", **preflight})
    assert allowed.status_code == 200
    assert allowed.headers["access-control-allow-origin"] == "https://intranet.example.com"
    other = httpx.options(f"{base}/query", headers={"Origin": "https://evil.example.net", **preflight})
    assert "access-control-allow-origin" not in other.headers
    simple = httpx.get(f"{base}/healthz", headers={"Origin": "https://intranet.example.com"})
    assert "x-request-id" in simple.headers["access-control-expose-headers"].lower()
