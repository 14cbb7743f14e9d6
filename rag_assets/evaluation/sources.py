"""What an evaluation runs on: a golden directory over the live database, or any BEIR folder loaded into its own database; and the ablation over either."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from psycopg.conninfo import make_conninfo

from rag_assets.evaluation import beir
from rag_assets.evaluation.ablation import ablate, ablation_rows, shipped_rows
from rag_assets.evaluation.golden import GoldenCase, GoldenError, load_golden, require_live
from rag_assets.evaluation.provenance import git_commit
from rag_assets.evaluation.public_sets import beir_cases
from rag_assets.samples import SYNONYMS
from rag_serving.spec import PipelineSpec
from rag_serving.store.bootstrap import bootstrap
from rag_serving.store.sessions import Database, app_url
from rag_serving.wiring import Wiring, embedder_for

# Public sets are scored on retrieval at k = 10 for every row (they carry no answer strings).
PUBLIC_K = 10


@dataclass
class Source:
    """Cases and the serving-role database they are asked against."""

    name: str
    cases: list[GoldenCase]
    database: Database
    answer: bool  # the cases say what an answer must contain (golden) or only which pages are relevant (BEIR)

    def close(self) -> None:
        self.database.close()


def golden(settings, folder: Path, split: str) -> Source:
    """A golden directory (golden/README.md format) against the live database: its documents must be ingested for
    the tenants its cases name."""
    cases = load_golden(Path(folder), split)
    database = Database(app_url(settings.app_database_url, bootstrap(settings)), max_size=1)
    try:
        require_live(database, cases)
    except GoldenError:
        database.close()
        raise
    return Source(f"{Path(folder).name} ({split})", cases, database, answer=True)


def beir_folder(settings, folder: Path, split: str, embedder, say: Callable[[str], None] = print) -> Source:
    """Any BEIR folder: its corpus loaded (once per embedder) into database beir_<name> on the configured server,
    tenant bench/<name>, and its split's queries as cases."""
    folder = Path(folder)
    if not (folder / "corpus.jsonl").is_file():
        raise FileNotFoundError(f"{folder / 'corpus.jsonl'}: not a BEIR folder (corpus.jsonl, queries.jsonl, qrels/)")
    rooftop = beir.rooftop_for(folder)
    url = beir.scratch_database(bootstrap(settings), f"beir_{rooftop.replace('-', '_')}")
    beir.load_corpus(url, folder, embedder, split=split, rooftop=rooftop, say=say)
    serving_url = make_conninfo(settings.app_database_url, dbname=f"beir_{rooftop.replace('-', '_')}") \
        if settings.app_database_url else app_url(None, url)
    return Source(f"BEIR {folder.name} ({split})", beir_cases(folder, split, rooftop=rooftop),
                  Database(serving_url, max_size=1), answer=False)


def open_source(settings, *, golden_dir: Path | None, beir_dir: Path | None, split: str | None, embedder,
                say: Callable[[str], None] = print) -> Source:
    if beir_dir is not None:
        return beir_folder(settings, beir_dir, split or "test", embedder, say=say)
    return golden(settings, golden_dir, split or "dev")


def shipped_for(source: Source, spec: PipelineSpec) -> PipelineSpec:
    """The spec a source is measured at: retrieval-only sets at k = 10, as the public-set tables report."""
    return spec if source.answer else spec.replace(k=PUBLIC_K)


def run_ablation(settings, source: Source, spec: PipelineSpec, *, rows: str = "all", embedder=None,
                 progress=None, llm: str | None = None, llm_model: str | None = None) -> dict:
    """The ablation on a source: naive RAG to the given (shipped) spec, one component per row."""
    embedder = embedder or embedder_for(settings)
    wiring = Wiring(source.database, embedder, api_key=settings.generator_api_key)
    shipped = shipped_for(source, spec)
    generative = shipped.helper_url is not None or shipped.generator != "extractive"
    table = ablation_rows(shipped, answer=source.answer, helper=generative and source.answer,
                          synonyms=(shipped.synonyms or str(SYNONYMS)) if source.answer else None,
                          llm=llm if source.answer else None, llm_model=llm_model)
    table = shipped_rows(table) if rows == "shipped" else table
    result = ablate(wiring, source.cases, table, progress=progress)
    result.update({"commit": git_commit(), "source": source.name, "embedder": embedder.model,
                   "generator": wiring.generator(shipped).model, "pipeline": shipped.digest,
                   "pipeline_summary": shipped.summary(),
                   "chunking": {"size": settings.chunk_size, "overlap": settings.chunk_overlap,
                                "snap": settings.chunk_snap}})
    return result
