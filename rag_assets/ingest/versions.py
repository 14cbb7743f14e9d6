"""Which versions of a file a run builds: those waiting for the run's settings, else a new version of each live one."""

from __future__ import annotations

from dataclasses import dataclass

import psycopg

from rag_assets.ingest.queries import sql_text
from rag_assets.ingest.registration import content_id, document_id
from rag_assets.ingest.steps import building_documents


@dataclass(frozen=True)
class Plan:
    documents: list[dict]  # the versions now building
    state: str  # "registered": versions registered (or failed) under these settings; "rebuild"; "none"


def rebuild_id(live_id: str) -> str:
    """A fresh build of a live version with the same settings: its id follows from the version it replaces."""
    return content_id(live_id, "rebuild")


def plan_build(conn: psycopg.Connection, sha: str, digest: str, *, rebuild: bool = True) -> Plan:
    """Mark building what this run builds. Versions registered (or failed) under the run's chunk settings come first;
    when there are none and rebuild is on, every live version of the file gets a successor built with these
    settings: new settings make a new version, the same settings rebuild it."""
    with conn.transaction():
        conn.execute(sql_text("fail_other_settings"),
                     {"sha256": sha, "digest": digest,
                      "error": f"abandoned when a run with other chunk settings ({digest}) built the file"})
        pending = [d for d in conn.execute(sql_text("select_pending_for_file"), (sha,)).fetchall()
                   if d["pipeline_digest"] == digest]
        if pending or not rebuild:
            for doc in pending:
                conn.execute(sql_text("mark_building"), (doc["id"],))
            return Plan(building_documents(conn, sha), "registered" if pending else "none")
        live = conn.execute(sql_text("select_live_for_file"), (sha,)).fetchall()
        for doc in live:
            same = doc["pipeline_digest"] == digest
            new_id = rebuild_id(doc["id"]) if same else document_id(
                doc["organization_id"], doc["rooftop_id"], doc["source_path"], sha, digest)
            conn.execute(sql_text("insert_document"), {
                **{k: doc[k] for k in ("organization_id", "rooftop_id", "source_path", "sha256", "file_name",
                                       "media_type", "title", "kind", "published_on")},
                "id": new_id, "pipeline_digest": digest,
            })
        return Plan(building_documents(conn, sha), "rebuild" if live else "none")
