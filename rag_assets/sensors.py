"""Watches the inbox folder (<inbox>/<organization>/<rooftop>/...) and ingests new or changed files."""


import json
from pathlib import Path

from dagster import DefaultSensorStatus, RunRequest, SensorEvaluationContext, SensorResult, SkipReason, sensor

from rag_serving.config import load_settings

from .extraction import SUFFIX_TYPES
from .jobs import ingest_job
from .partitions import files_partitions
from .pipeline import RegistrationError, register_file, validate_tenant_id
from .resources import ChunkerResource, PostgresResource, TokenizerResource


def inbox_files(inbox: Path) -> list[tuple[str, str, Path, str]]:
    """(organization, rooftop, path, source path) for every supported file two levels below the inbox."""
    found = []
    if not inbox.is_dir():
        return found
    for org_dir in sorted(p for p in inbox.iterdir() if p.is_dir()):
        for rooftop_dir in sorted(p for p in org_dir.iterdir() if p.is_dir()):
            for path in sorted(rooftop_dir.rglob("*")):
                if path.is_file() and path.suffix.lower() in SUFFIX_TYPES:
                    found.append((org_dir.name, rooftop_dir.name, path, path.relative_to(rooftop_dir).as_posix()))
    return found


@sensor(job=ingest_job, minimum_interval_seconds=30, default_status=DefaultSensorStatus.STOPPED)
def inbox_sensor(
    context: SensorEvaluationContext,
    database: PostgresResource,
    tokenizer: TokenizerResource,
    chunker: ChunkerResource,
):
    inbox = load_settings().inbox
    seen: dict[str, str] = json.loads(context.cursor) if context.cursor else {}
    files = inbox_files(inbox)
    if not files:
        return SkipReason(f"no files under {inbox}/<organization>/<rooftop>/")
    digest = chunker.digest(tokenizer.load())
    requests, new_keys, now_seen = [], [], {}
    with database.connect() as conn:
        for org, rooftop, path, source in files:
            stat = path.stat()
            sidecar = path.with_name(path.name + ".meta.yaml")
            stamp = f"{stat.st_mtime_ns}:{stat.st_size}:{sidecar.stat().st_mtime_ns if sidecar.exists() else 0}:{digest}"
            now_seen[str(path)] = stamp
            if seen.get(str(path)) == stamp:
                continue
            try:
                validate_tenant_id("organization folder", org)
                validate_tenant_id("rooftop folder", rooftop)
                reg = register_file(conn, path, organization_id=org, rooftop_id=rooftop, source_path=source, digest=digest)
            except (RegistrationError, ValueError, OSError) as exc:
                context.log.error(f"{path}: {exc}")
                continue
            if reg.state == "unchanged":
                continue
            new_keys.append(reg.sha256)
            requests.append(
                RunRequest(
                    partition_key=reg.sha256,
                    run_key=f"{reg.document_id}:{stamp}",
                    tags={"rag/organization": org, "rag/rooftop": rooftop, "rag/source": source},
                )
            )
    return SensorResult(
        run_requests=requests,
        dynamic_partitions_requests=[files_partitions.build_add_request(sorted(set(new_keys)))] if new_keys else [],
        cursor=json.dumps(now_seen, sort_keys=True),
    )
