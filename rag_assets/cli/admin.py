"""`rag keys` and `rag web`: API keys for the endpoint and per-organization web fallback rules."""

from __future__ import annotations

import click

from rag_assets.cli.context import fail, say, settings
from rag_serving.store import apikeys, web_rules
from rag_serving.store.bootstrap import bootstrap, connect


@click.command("keys")
@click.argument("action", type=click.Choice(["create", "revoke", "list"]))
@click.option("--org", help="create: the organization the key reads")
@click.option("--rooftop", "rooftops", multiple=True, help="create: a collection it reads (repeat for several)")
@click.option("--label", default="", help="create: a note for `rag keys list` (who or what uses it)")
@click.option("--key", help="revoke: the key itself")
@click.option("--id", "key_id", help="revoke: the key's id as `rag keys list` shows it (when the key is lost)")
def keys(action, org, rooftops, label, key, key_id) -> None:
    """API keys for the query endpoint: create (shown once), revoke, list. Revoking a key also ends the page links
    its answers gave out."""
    with connect(bootstrap(settings()), autocommit=True) as conn:
        if action == "create":
            if not org or not rooftops:
                raise fail("rag keys create: --org and at least one --rooftop are required")
            say(apikeys.create_key(conn, org, list(rooftops), label))
            say(f"(shown once; stored as SHA-256, scoped to {org}/{','.join(rooftops)})")
        elif action == "revoke":
            if bool(key) == bool(key_id):
                raise fail("rag keys revoke: give --key or --id (one of them)")
            if key:
                say("revoked" if apikeys.revoke_key(conn, key) else "no such active key")
                return
            found = apikeys.revoke_key_id(conn, key_id)
            if found > 1:
                raise fail(f"rag keys revoke: {found} active keys have id {key_id}; revoke with --key")
            say("revoked" if found == 1 else f"no active key with id {key_id}")
        else:
            rows = apikeys.list_keys(conn)
            if not rows:
                say("no API keys")
            for r in rows:
                state = f"revoked {r['revoked_at']:%Y-%m-%d}" if r["revoked_at"] else "active"
                say(f"{r['id']}  {r['organization_id']}/{','.join(r['rooftop_ids'])}  {state}  "
                    f"created {r['created_at']:%Y-%m-%d}  {r['label']}")


@click.command("web")
@click.argument("action", type=click.Choice(["allow", "deny", "list"]))
@click.option("--org", help="allow, deny: the organization")
@click.option("--rooftop", help="one collection; omit for the whole organization")
@click.option("--note", default="", help="why, for `rag web list`")
def web(action, org, rooftop, note) -> None:
    """Per-organization rules for the web fallback (off unless allowed)."""
    if action in ("allow", "deny") and not org:
        raise fail(f"rag web {action}: --org is required")
    with connect(bootstrap(settings()), autocommit=True) as conn:
        if action in ("allow", "deny"):
            web_rules.set_rule(conn, org, rooftop, action == "allow", note)
            scope = f"{org}/{rooftop}" if rooftop else f"{org} (every rooftop)"
            say(f"web fallback {'allowed' if action == 'allow' else 'denied'} for {scope}")
            return
        rows = web_rules.rules(conn)
        if not rows:
            say("no web fallback rules: the web fallback is off for every organization")
        for r in rows:
            say(f"{r['organization_id']}/{r['rooftop_id'] or '*'}  {'allow' if r['allowed'] else 'deny'}  {r['note']}")
