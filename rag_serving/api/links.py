"""Signed page links: a URL that opens one cited page without an API key, until it expires or the key is revoked."""

from __future__ import annotations

import base64
import hashlib
import hmac
import time
from dataclasses import dataclass
from urllib.parse import quote as urlquote

from rag_serving.store.sessions import Tenant

KEY_ID_HEX = 16  # the key hash's prefix a link names its key by: unique among any realistic number of keys


@dataclass(frozen=True)
class Caller:
    """Who a request is for: the tenant, and the hash of the key that asked (it signs the links it is given)."""

    tenant: Tenant
    key_sha256: str


def _mac(key_sha256: str, document_id: str, page: int, expires: int) -> str:
    message = f"{document_id}\n{page}\n{expires}".encode()
    digest = hmac.new(bytes.fromhex(key_sha256), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def sign(key_sha256: str, document_id: str, page: int, ttl_s: int, now: float | None = None) -> str:
    """A token for this one page: the key's id, when it expires, and an HMAC keyed by the key's hash."""
    expires = int((time.time() if now is None else now) + ttl_s)
    return f"{key_sha256[:KEY_ID_HEX]}.{expires}.{_mac(key_sha256, document_id, page, expires)}"


def key_id(token: str) -> str | None:
    parts = token.split(".")
    return parts[0] if len(parts) == 3 and len(parts[0]) == KEY_ID_HEX else None


def verify(token: str, key_sha256: str, document_id: str, page: int, now: float | None = None) -> str | None:
    """None when the token opens this page now, else why not."""
    parts = token.split(".")
    if len(parts) != 3 or not parts[1].isdigit():
        return "malformed link token"
    expires = int(parts[1])
    if not hmac.compare_digest(parts[2], _mac(key_sha256, document_id, page, expires)):
        return "the link token is not for this page"
    if expires < (time.time() if now is None else now):
        return "the link has expired; ask again for a fresh one"
    return None


def page_path(base: str, document_id: str, page: int) -> str:
    """The page's URL under base: its JSON; /view, /pdf and /image follow it."""
    return f"{base.rstrip('/')}/documents/{urlquote(document_id, safe='')}/pages/{page}"


def page_urls(base: str, caller: Caller, document_id: str, page: int, quote: str, ttl_s: int) -> dict[str, str]:
    """The viewer (the page with the quote highlighted) and the page as a one-page PDF, both signed."""
    token = sign(caller.key_sha256, document_id, page, ttl_s)
    root = page_path(base, document_id, page)
    highlight = f"&quote={urlquote(quote, safe='')}" if quote else ""
    return {"link": f"{root}/view?token={token}{highlight}", "pdf": f"{root}/pdf?token={token}"}
