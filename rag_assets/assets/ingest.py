"""Ingest assets: source_documents → pages → sections → chunks → embeddings (→ token_vectors) and sentence_vectors
→ indexes → published_documents, per file SHA-256."""


from dagster import AssetExecutionContext, Config, Failure, MaterializeResult, MetadataValue, asset

from rag_assets.ingest import publish, steps, vectors
from rag_assets.ingest.extraction import IngestError
from rag_assets.ingest.versions import plan_build
from rag_assets.partitions import files_partitions, partition_sha256
from rag_assets.resources import ChunkerResource, EmbedderResource, OcrResource, PostgresResource, TokenizerResource

GROUP = "ingest"
PROGRESS_EVERY_PAGES = 25


def _metadata(report: steps.StepReport) -> dict:
    meta = {"documents": report.documents, "seconds": MetadataValue.float(round(report.seconds, 3))}
    meta.update({k: MetadataValue.int(v) for k, v in report.counts.items()})
    if report.counts.get("pages") and report.seconds:
        meta["pages_per_second"] = MetadataValue.float(round(report.counts["pages"] / report.seconds, 2))
    if report.warnings:
        meta["warnings"] = MetadataValue.md("\n".join(f"- {w}" for w in report.warnings))
    return meta


def _idle(context: AssetExecutionContext, report: steps.StepReport) -> steps.StepReport:
    """Say so when a step found no version of the file building: materialized alone (chunks with new settings, say),
    it builds nothing; source_documents, the start of the job, is what makes a version to build."""
    if not report.documents:
        context.log.warning("no version of this file is building, so this step changed nothing; materialize the "
                            "whole ingest_job (from source_documents) to build a new version")
    return report


def _failure(exc: IngestError) -> Failure:
    return Failure(
        description=str(exc),
        metadata={"file": exc.file_name, "error_class": type(exc).__name__, "stage": exc.stage},
        allow_retries=False,
    )


class SourceDocumentsConfig(Config):
    """rebuild: when no version of the file waits for this run's chunk settings, build a new version of each live one
    with them (new settings: a new version; the same settings: rebuilt). `rag ingest` and the inbox sensor register
    the versions they want first and turn it off."""

    rebuild: bool = True


@asset(partitions_def=files_partitions, group_name=GROUP, kinds={"postgres", "pdf"})
def source_documents(context: AssetExecutionContext, config: SourceDocumentsConfig, database: PostgresResource,
                     tokenizer: TokenizerResource, chunker: ChunkerResource) -> MaterializeResult:
    """The versions this run builds, then the stored file opened and checked: type, readability, encryption, page
    count. Bad files fail here, alone."""
    sha = partition_sha256(context.partition_key)
    with database.connect() as conn:
        try:
            with steps.guarded(conn, sha, "validate", context.run_id):
                digest = chunker.digest(tokenizer.load())
                plan = plan_build(conn, sha, digest, rebuild=config.rebuild)
                context.log.info(f"{plan.state}: {len(plan.documents)} version(s) to build with settings {digest}")
                report = steps.validate_step(conn, sha, run_id=context.run_id)
        except IngestError as exc:
            raise _failure(exc) from exc
    meta = _metadata(report)
    meta.update({"build": plan.state, "pipeline_digest": digest,
                 "versions": MetadataValue.md("\n".join(
                     f"- {d['organization_id']}/{d['rooftop_id']}: {d['source_path']} ({d['id'][:12]})"
                     for d in plan.documents) or "none")})
    return MaterializeResult(metadata=meta)


@asset(partitions_def=files_partitions, group_name=GROUP, deps=[source_documents], kinds={"postgres"})
def pages(context: AssetExecutionContext, database: PostgresResource, ocr: OcrResource) -> MaterializeResult:
    """Page text with physical index and printed label; image-only pages OCRed or recorded as unreadable."""
    def progress(done: int, total: int) -> None:
        if done % PROGRESS_EVERY_PAGES == 0 or done == total:
            context.log.info(f"extracted {done}/{total} pages")
            steps.log.info("  pages %d/%d", done, total)

    sha = partition_sha256(context.partition_key)
    with database.connect() as conn:
        try:
            with steps.guarded(conn, sha, "pages", context.run_id):
                report = _idle(context, steps.pages_step(
                    conn, sha, ocr_enabled=ocr.enabled, ocr_jobs=ocr.jobs, run_id=context.run_id, progress=progress
                ))
        except IngestError as exc:
            raise _failure(exc) from exc
    for warning in report.warnings:
        context.log.warning(warning)
    return MaterializeResult(metadata=_metadata(report))


@asset(partitions_def=files_partitions, group_name=GROUP, deps=[pages], kinds={"postgres"})
def sections(context: AssetExecutionContext, database: PostgresResource, tokenizer: TokenizerResource) -> MaterializeResult:
    """Section tree from the PDF outline, or from headings in the text when there is none."""
    sha = partition_sha256(context.partition_key)
    with database.connect() as conn:
        with steps.guarded(conn, sha, "sections", context.run_id):
            report = _idle(context, steps.sections_step(conn, sha, tokenizer.load(), run_id=context.run_id))
    return MaterializeResult(metadata=_metadata(report))


@asset(partitions_def=files_partitions, group_name=GROUP, deps=[sections], kinds={"postgres"})
def chunks(
    context: AssetExecutionContext,
    database: PostgresResource,
    tokenizer: TokenizerResource,
    chunker: ChunkerResource,
) -> MaterializeResult:
    """Token windows with page spans and character offsets, inside top-level sections."""
    config = chunker.config(tokenizer.max_input_tokens())
    sha = partition_sha256(context.partition_key)
    with database.connect() as conn:
        with steps.guarded(conn, sha, "chunks", context.run_id):
            report = _idle(context, steps.chunks_step(conn, sha, tokenizer.load(), config, run_id=context.run_id))
    meta = _metadata(report)
    meta["chunk_size"], meta["chunk_overlap"], meta["chunk_snap"] = config.size, config.overlap, config.snap
    return MaterializeResult(metadata=meta)


@asset(partitions_def=files_partitions, group_name=GROUP, deps=[chunks], kinds={"postgres", "pgvector"})
def embeddings(context: AssetExecutionContext, database: PostgresResource, embedder: EmbedderResource) -> MaterializeResult:
    """A vector per chunk from the configured embedder, through the embedding cache (hits and misses counted), and
    the token vectors of the chunks it embedded, from the same forward pass."""
    model = embedder.get()
    sha = partition_sha256(context.partition_key)
    with database.connect() as conn:
        with steps.guarded(conn, sha, "embeddings", context.run_id):
            report = _idle(context, vectors.embeddings_step(conn, sha, model, run_id=context.run_id))
    meta = _metadata(report)
    meta["model"] = model.model
    total = report.counts.get("cache_hits", 0) + report.counts.get("cache_misses", 0)
    meta["cache_hit_rate"] = MetadataValue.float(round(report.counts.get("cache_hits", 0) / total, 4) if total else 0.0)
    return MaterializeResult(metadata=meta)


@asset(partitions_def=files_partitions, group_name=GROUP, deps=[embeddings], kinds={"postgres"})
def indexes(context: AssetExecutionContext, database: PostgresResource, embedder: EmbedderResource) -> MaterializeResult:
    """BM25 postings and chunk lengths for the sparse leg; the HNSW cosine index for the model's vectors."""
    model = embedder.get()
    sha = partition_sha256(context.partition_key)
    with database.connect() as conn:
        with steps.guarded(conn, sha, "indexes", context.run_id):
            report = _idle(context, publish.indexes_step(conn, sha, model.model, model.dim, run_id=context.run_id))
    meta = _metadata(report)
    meta["hnsw_index"] = publish.hnsw_index_name(model.model)
    return MaterializeResult(metadata=meta)


@asset(partitions_def=files_partitions, group_name=GROUP, deps=[embeddings], kinds={"postgres"})
def token_vectors(context: AssetExecutionContext, database: PostgresResource, embedder: EmbedderResource) -> MaterializeResult:
    """Per-token vectors for late interaction (MaxSim), int8 with a scale per token, for the chunks `embeddings` did
    not already give them (its forward pass stores them for every text the embedding cache lacked)."""
    model = embedder.get()
    sha = partition_sha256(context.partition_key)
    with database.connect() as conn:
        with steps.guarded(conn, sha, "token_vectors", context.run_id):
            report = vectors.token_vectors_step(conn, sha, model, run_id=context.run_id)
    meta = _metadata(report)
    stored = report.counts.get("encoded", 0)
    if stored:
        meta["bytes_per_chunk"] = MetadataValue.int(report.counts["bytes"] // stored)
        meta["tokens_per_chunk"] = MetadataValue.float(round(report.counts["tokens"] / stored, 1))
    return MaterializeResult(metadata=meta)


@asset(partitions_def=files_partitions, group_name=GROUP, deps=[chunks], kinds={"postgres"})
def sentence_vectors(context: AssetExecutionContext, database: PostgresResource, embedder: EmbedderResource) -> MaterializeResult:
    """Unit vectors of every chunk's quotable sentences, which the answer step reads instead of embedding them."""
    model = embedder.get()
    sha = partition_sha256(context.partition_key)
    with database.connect() as conn:
        with steps.guarded(conn, sha, "sentence_vectors", context.run_id):
            report = vectors.sentence_vectors_step(conn, sha, model, run_id=context.run_id)
    meta = _metadata(report)
    if report.counts.get("chunks"):
        meta["sentences_per_chunk"] = MetadataValue.float(round(report.counts["sentences"] / report.counts["chunks"], 1))
    return MaterializeResult(metadata=meta)


@asset(partitions_def=files_partitions, group_name=GROUP, deps=[indexes, token_vectors, sentence_vectors],
       kinds={"postgres"})
def published_documents(context: AssetExecutionContext, database: PostgresResource) -> MaterializeResult:
    """The atomic switch: the new version goes live and the one it replaces retires, in one transaction."""
    sha = partition_sha256(context.partition_key)
    with database.connect() as conn:
        with steps.guarded(conn, sha, "publish", context.run_id):
            report = _idle(context, publish.publish_step(conn, sha, run_id=context.run_id))
    return MaterializeResult(metadata=_metadata(report))


ingest_assets = [source_documents, pages, sections, chunks, embeddings, token_vectors, sentence_vectors, indexes,
                 published_documents]
