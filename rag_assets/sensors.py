"""Watches the inbox folder (<inbox>/<organization>/<rooftop>/...) and ingests new or changed files."""


import json
from pathlib import Path

from dagster import DefaultSensorStatus, RunRequest, SensorEvaluationContext, SensorResult, SkipReason, sensor

from rag_assets.ingest.registration import RegistrationError, register_file
from rag_assets.ingest.targets import tenant_folder_targets
from rag_assets.jobs import ingest_job
from rag_assets.partitions import file_partition_key, files_partitions
from rag_assets.resources import ChunkerResource, InboxResource, PostgresResource, TokenizerResource

# The sensor registered the version it wants built; a run finding it built already rebuilds nothing.
REGISTERED = {"ops": {"source_documents": {"config": {"rebuild": False}}}}


@sensor(job=ingest_job, minimum_interval_seconds=30, default_status=DefaultSensorStatus.STOPPED)
def inbox_sensor(
    context: SensorEvaluationContext,
    database: PostgresResource,
    tokenizer: TokenizerResource,
    chunker: ChunkerResource,
    inbox: InboxResource,
):
    folder = Path(inbox.folder)
    seen: dict[str, str] = json.loads(context.cursor) if context.cursor else {}
    files = tenant_folder_targets(folder)
    if not files:
        return SkipReason(f"no files under {folder}/<organization>/<rooftop>/")
    digest = chunker.digest(tokenizer.load())
    requests, new_keys, now_seen = [], [], {}
    with database.connect() as conn:
        for target in files:
            org, rooftop, path, source = target.organization_id, target.rooftop_id, target.path, target.source_path
            stat = path.stat()
            sidecar = path.with_name(path.name + ".meta.yaml")
            stamp = f"{stat.st_mtime_ns}:{stat.st_size}:{sidecar.stat().st_mtime_ns if sidecar.exists() else 0}:{digest}"
            now_seen[str(path)] = stamp
            if seen.get(str(path)) == stamp:
                continue
            try:
                reg = register_file(conn, path, organization_id=org, rooftop_id=rooftop, source_path=source, digest=digest)
            except (RegistrationError, ValueError, OSError) as exc:
                context.log.error(f"{path}: {exc}")
                continue
            if reg.state == "unchanged":
                continue
            key = file_partition_key(path.name, reg.sha256)
            new_keys.append(key)
            requests.append(
                RunRequest(
                    partition_key=key,
                    run_config=REGISTERED,
                    run_key=f"{reg.document_id}:{stamp}",
                    tags={"rag/organization": org, "rag/rooftop": rooftop, "rag/source": source},
                )
            )
    return SensorResult(
        run_requests=requests,
        dynamic_partitions_requests=[files_partitions.build_add_request(sorted(set(new_keys)))] if new_keys else [],
        cursor=json.dumps(now_seen, sort_keys=True),
    )
