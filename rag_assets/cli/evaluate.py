"""`rag eval`, `rag ablate`, `rag sweep`: the shipped pipeline (or a variant of it) measured on any golden directory or BEIR folder."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click

from rag_assets.cli.context import fail, say, settings
from rag_assets.evaluation.provenance import REPO_ROOT, git_commit
from rag_assets.evaluation.scoring import BOOTSTRAP_RESAMPLES, UNIT_NOTE, summarize
from rag_serving.spec import with_overrides

GOLDEN = REPO_ROOT / "golden"


def data_options(command):
    command = click.option("--split", help="golden: dev | heldout | all (default dev); BEIR: the qrels file's name "
                                           "(default test)")(command)
    command = click.option("--beir", "beir_dir", type=click.Path(exists=True, file_okay=False, path_type=Path),
                           help="a BEIR folder (corpus.jsonl, queries.jsonl, qrels/); loaded into its own database")(command)
    command = click.option("--golden", "golden_dir", type=click.Path(exists=True, file_okay=False, path_type=Path),
                           default=GOLDEN, show_default=True, help="a golden directory (golden/README.md)")(command)
    return click.option("--with", "overrides", multiple=True, metavar="FIELD=VALUE",
                        help="a variant of the shipped spec, e.g. --with reranker=none (repeatable)")(command)


def _spec(s, overrides):
    try:
        return with_overrides(s.pipeline(), overrides)
    except ValueError as exc:
        raise fail(f"rag: --with {exc}")


def _open(s, golden_dir, beir_dir, split, embedder):
    from rag_assets.evaluation.sources import open_source

    try:
        return open_source(s, golden_dir=golden_dir, beir_dir=beir_dir, split=split, embedder=embedder, say=say)
    except (FileNotFoundError, ValueError) as exc:
        raise fail(f"rag: {exc}")


@click.command("eval")
@data_options
def eval_(golden_dir, beir_dir, split, overrides) -> None:
    """Score the shipped pipeline (or a --with variant) case by case: a JSON line per case, then a summary line."""
    from rag_assets.evaluation.runs import run_case
    from rag_assets.evaluation.sources import shipped_for
    from rag_serving.wiring import Wiring, embedder_for

    s = settings()
    spec = _spec(s, overrides)
    embedder = embedder_for(s)
    source = _open(s, golden_dir, beir_dir, split, embedder)
    try:
        spec = shipped_for(source, spec)
        pipeline = Wiring(source.database, embedder, api_key=s.generator_api_key).pipeline(spec)
        rows = []
        for case in source.cases:
            rows.append(run_case(pipeline, case, answer=source.answer))
            say(json.dumps(rows[-1]))
    finally:
        source.close()
    say(json.dumps({"summary": True, "commit": git_commit(), "source": source.name, "cases": len(rows),
                    "pipeline": spec.digest, "pipeline_summary": spec.summary(), "spec": spec.as_dict(),
                    "embedder": embedder.model, "generator": pipeline.answerer.generator.model,
                    "chunking": {"size": s.chunk_size, "overlap": s.chunk_overlap, "snap": s.chunk_snap},
                    **summarize(rows), "unit": UNIT_NOTE}))


def run_ablate(golden_dir=GOLDEN, beir_dir=None, split=None, rows="all", overrides=(), json_out=None,
               markdown_out=None, save: bool = False, llm: str | None = None, llm_model: str | None = None) -> dict:
    from rag_assets.evaluation.report import markdown, save_result
    from rag_assets.evaluation.sources import run_ablation
    from rag_serving.wiring import embedder_for

    s = settings()
    spec = _spec(s, overrides)
    embedder = embedder_for(s)
    source = _open(s, golden_dir, beir_dir, split, embedder)
    try:
        result = run_ablation(s, source, spec, rows=rows, embedder=embedder, llm=llm, llm_model=llm_model)
    finally:
        source.close()
    table = markdown(result)
    if json_out:
        Path(json_out).write_text(json.dumps(result, indent=2, default=str))
    if markdown_out:
        Path(markdown_out).write_text(table + "\n")
    say(f"ablation on {result['cases']} cases of {result['source']}, commit {result['commit']}, embedder "
        f"{result['embedder']}, generator {result['generator']}")
    say(f"shipped pipeline {result['pipeline']}: {result['pipeline_summary']}")
    say(table)
    footer = f"({UNIT_NOTE}; 95% CI: {BOOTSTRAP_RESAMPLES} paired bootstrap resamples of the questions, fixed seed)"
    say(footer)
    if save:
        lines = [f"{result['cases']} cases of {result['source']}; embedder {result['embedder']}; generator "
                 f"{result['generator']}", "", f"Shipped pipeline `{result['pipeline']}`: {result['pipeline_summary']}",
                 "", table, "", footer]
        command = "rag ablate " + " ".join(sys.argv[2:]) if len(sys.argv) > 2 else "rag ablate"
        name = f"ablation {result['source']}{' with llm' if llm else ''}"
        say(f"saved {save_result(name, chr(10).join(lines), command)}")
    return result


@click.command("ablate")
@data_options
@click.option("--set", "public_set", type=click.Choice(["scifact", "mmlongbench"]),
              help="a public benchmark set from RAG_BENCH_DATA, run by benchmarks.ablation (source checkout)")
@click.option("--rows", type=click.Choice(["all", "shipped"]), default="all", show_default=True,
              help="shipped: naive, hybrid, the learned reranker, routing and the full pipeline only")
@click.option("--json", "json_out", type=click.Path(dir_okay=False), help="write the full result as JSON here")
@click.option("--markdown", "markdown_out", type=click.Path(dir_okay=False), help="write the table as Markdown here")
@click.option("--save", is_flag=True, help="also write benchmarks/results/<date>-ablation-<source>.md")
@click.option("--llm", metavar="URL", help="an OpenAI-compatible endpoint (e.g. `rag models llm`): adds a row where "
                                            "it writes the answers behind the same routing and grounding check")
@click.option("--llm-model", metavar="ID", help="the model id to ask the --llm endpoint for")
def ablate(golden_dir, beir_dir, split, overrides, public_set, rows, json_out, markdown_out, save, llm,
           llm_model) -> None:
    """Naive RAG to the shipped pipeline, one component per row, with paired bootstrap intervals."""
    if public_set:
        # MMLongBench needs its PDFs ingested and SciFact its train/test split: the benchmark module sets them up.
        if not (REPO_ROOT / "benchmarks" / "ablation.py").exists():
            raise fail("rag ablate --set runs from a source checkout (benchmarks/)")
        code = subprocess.call([sys.executable, "-m", "benchmarks.ablation", "--set", public_set], cwd=REPO_ROOT)
        raise click.exceptions.Exit(code)
    run_ablate(golden_dir, beir_dir, split, rows, overrides, json_out, markdown_out, save, llm, llm_model)


@click.command("sweep")
@click.option("--golden", "golden_dir", type=click.Path(exists=True, file_okay=False, path_type=Path), default=GOLDEN,
              show_default=True, help="folder of golden cases")
@click.option("--split", type=click.Choice(["dev", "heldout", "all"]), default="dev", show_default=True,
              help="which golden cases (tune on dev only)")
@click.option("--max-false-answer-rate", type=float, default=0.05, show_default=True,
              help="the threshold chosen is the lowest whose false-answer rate stays at or under this")
@click.option("--with", "overrides", multiple=True, metavar="FIELD=VALUE", help="a variant of the shipped spec")
@click.option("--save", is_flag=True, help="also write benchmarks/results/<date>-threshold-sweep-<split>.md")
def sweep(golden_dir, split, max_false_answer_rate, overrides, save) -> None:
    """The answer threshold 0.1 to 0.9 for the shipped pipeline: false-answer against over-abstention rate."""
    from rag_assets.evaluation import sources, thresholds
    from rag_serving.wiring import Wiring, embedder_for

    s = settings()
    spec = _spec(s, overrides)
    source = sources.golden(s, golden_dir, split)
    try:
        wiring = Wiring(source.database, embedder_for(s), api_key=s.generator_api_key)
        result = thresholds.run_sweep(wiring, source.cases, spec, max_false_answer_rate=max_false_answer_rate)
    finally:
        source.close()
    from rag_assets.evaluation.report import save_result

    chosen, auc = result["chosen"], result["auc"]
    lines = [f"threshold sweep on {len(source.cases)} golden cases (split {split}), commit {git_commit()}, "
             f"pipeline {spec.digest} at threshold 0 ({spec.summary()})", "",
             thresholds.markdown(result["table"], chosen), "",
             f"chosen: {chosen['threshold']:.1f} (lowest threshold with false-answer rate ≤ {max_false_answer_rate})"]
    if auc is not None:
        lines.append(f"confidence ROC AUC, answerable vs no-answer: {auc:.3f}")
    for line in lines:
        say(line)
    if save:
        say(f"saved {save_result(f'threshold sweep {split}', chr(10).join(lines), 'rag sweep ' + ' '.join(sys.argv[2:]))}")
