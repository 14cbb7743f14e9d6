"""Jobs and schedules: the ingest graph for one file partition; the nightly golden evaluation; the chunk sweep."""

from dagster import AssetSelection, ScheduleDefinition, define_asset_job, in_process_executor

from rag_assets.assets.sweep import chunk_sweep

# One file's steps run one after another in the run's own process: Dagster's default gives each step a subprocess
# that imports the definitions and loads the embedder again (benchmarks/ui_run.py). Files run in parallel as runs,
# under the run queue's limits (dagster.yaml).
ingest_job = define_asset_job(
    "ingest_job",
    selection=AssetSelection.groups("ingest"),
    executor_def=in_process_executor,
    tags={"rag/run": "ingest"},
    description="Build one stored file (partition: its name and SHA-256) into pages, sections, chunks and vectors with "
                "the run's chunk settings, publish it, and run its quality gates.",
)

eval_job = define_asset_job(
    "golden_eval_job",
    selection=AssetSelection.groups("evaluation"),
    tags={"rag/run": "evaluation"},  # at most one at a time (dagster.yaml's run queue)
    description="The golden ablation against the live index; results land in eval_runs.",
)

chunk_sweep_job = define_asset_job(
    "chunk_sweep_job",
    selection=AssetSelection.assets(chunk_sweep),
    tags={"rag/run": "evaluation"},  # queued with the evaluations: one at a time
    description="Several chunk settings built beside the live index and scored on the golden cases; the table.",
)

# Nightly on the dev split; the held-out split is read only by the final benchmark run.
nightly_golden = ScheduleDefinition(job=eval_job, cron_schedule="0 3 * * *", name="nightly_golden_benchmark")
