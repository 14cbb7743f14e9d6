"""Who is asking: an API key in `Authorization: Bearer` or `X-API-Key` (both in OpenAPI), or a signed page link."""

# No `from __future__ import annotations`: FastAPI resolves the dependency annotations at definition time.

from typing import Annotated

from fastapi import Depends, HTTPException, Query, Security
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer

from rag_serving.api import links
from rag_serving.api.links import Caller
from rag_serving.api.state import State, state
from rag_serving.store.apikeys import key_hash, tenant_for_key
from rag_serving.store.sessions import Tenant
from rag_serving.store.sqlfiles import sql_text

MISSING = "missing API key: send `Authorization: Bearer <key>` or `X-API-Key`"
# auto_error off: a missing key is the 401 below, in the one error body, not FastAPI's 403.
bearer = HTTPBearer(auto_error=False, scheme_name="bearer", description="an API key from `rag keys create`")
api_key_header = APIKeyHeader(name="X-API-Key", auto_error=False, scheme_name="apiKey",
                              description="the same API key, in its own header")
UNAUTHORIZED = {"WWW-Authenticate": "Bearer"}


def _key(credentials: HTTPAuthorizationCredentials | None, header_key: str | None) -> str | None:
    return header_key or (credentials.credentials.strip() if credentials else None)


def caller(app: Annotated[State, Depends(state)],
           credentials: Annotated[HTTPAuthorizationCredentials | None, Security(bearer)] = None,
           header_key: Annotated[str | None, Security(api_key_header)] = None) -> Caller:
    key = _key(credentials, header_key)
    if not key:
        raise HTTPException(401, MISSING, headers=UNAUTHORIZED)
    with app.pipeline.database.anonymous() as conn:
        found = tenant_for_key(conn, key)
    if found is None:
        raise HTTPException(401, "unknown or revoked API key", headers=UNAUTHORIZED)
    return Caller(found, key_hash(key))


def page_caller(document_id: str, page: int, app: Annotated[State, Depends(state)],
                token: Annotated[str | None, Query(description="a signed link's token, instead of an API key",
                                                   max_length=200)] = None,
                credentials: Annotated[HTTPAuthorizationCredentials | None, Security(bearer)] = None,
                header_key: Annotated[str | None, Security(api_key_header)] = None) -> Caller:
    """An API key, or a link token signed for exactly this document and page by a key that is still active."""
    if token is None or _key(credentials, header_key):
        return caller(app, credentials, header_key)
    kid = links.key_id(token)
    row = None
    if kid is not None:
        with app.pipeline.database.anonymous() as conn:
            row = conn.execute(sql_text("link_key"), (kid,)).fetchone()
    if row is None:
        raise HTTPException(401, "the link's key is unknown or revoked", headers=UNAUTHORIZED)
    why = links.verify(token, row["key_sha256"], document_id, page)
    if why:
        raise HTTPException(401, why, headers=UNAUTHORIZED)
    return Caller(Tenant(row["organization_id"], tuple(row["rooftop_ids"])), row["key_sha256"])
