"""Ablation results as Markdown tables and as eval_runs rows."""

from __future__ import annotations

import hashlib
from pathlib import Path

# A result file's name after its date: the command's words, cut with a digest of the rest past this length.
SLUG_MAX = 120


def rate_cell(row: dict, name: str) -> str:
    """A rate with its 95% interval, e.g. "0.077 [0.000, 0.231]"."""
    value, ci = row.get(name), row.get(f"{name}_ci")
    if value is None:
        return "n/a"
    return f"{value:.3f} [{ci[0]:.3f}, {ci[1]:.3f}]"


def markdown(result: dict) -> str:
    lines = [
        "| configuration | hit@10 | MRR@10 | NDCG@10 | false-answer rate | over-abstention rate | correct | clarified | "
        "grounding failed | p50 ms | p95 ms |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in result["rows"]:
        lines.append(f"| {row['config']} | {row['hit@10']:.3f} | {row['mrr@10']:.3f} | {row['ndcg@10']:.3f} | "
                     f"{rate_cell(row, 'false_answer_rate')} | {rate_cell(row, 'over_abstention_rate')} | "
                     f"{rate_cell(row, 'correct_rate')} | {rate_cell(row, 'clarified_rate')} | "
                     f"{rate_cell(row, 'grounding_failed_rate')} | {row['p50_ms']} | {row['p95_ms']} |")
    lines.append("")
    lines.append("| configuration | vs | metric | better / worse / same | mean Δ | 95% CI | |")
    lines.append("|---|---|---|---|---|---|---|")
    for row in result["rows"]:
        for c in row["comparisons"]:
            verdict = "significant" if c["significant"] else "not significant"
            lines.append(f"| {row['config']} | {c['against']} | {c['metric']} | {c['better']} / {c['worse']} / {c['same']} | "
                         f"{c['mean_diff']:+.3f} | [{c['low']:+.3f}, {c['high']:+.3f}] | {verdict} |")
    return "\n".join(lines)


def store(conn, result: dict, source: str) -> list[int]:
    """One eval_runs row per configuration of an ablation result."""
    from psycopg.types.json import Jsonb

    from rag_assets.evaluation.queries import sql_text

    ids = []
    for row in result["rows"]:
        summary = {k: v for k, v in row.items() if k not in ("cases", "comparisons")}
        summary.update({"embedder": result.get("embedder"), "chunking": result.get("chunking")})
        ids.append(conn.execute(sql_text("insert_eval_run"), (result.get("commit", "unknown"), source, result.get("split", "dev"),
                                                  row["config"], row["digest"], Jsonb(summary), Jsonb(row["cases"]),
                                                  Jsonb(row["comparisons"]))).fetchone()["id"])
    return ids


def save_result(name: str, body: str, command: str, folder: Path | None = None, commit: str | None = None) -> Path:
    """benchmarks/results/<date>-<name>.md: what a command printed, headed by the command, date and machine, one
    section per run with its time and commit, so every number in the docs can point at the file that holds it. A run
    of the same command on the same day is appended, never written over: a day's slow run stays beside its fast
    ones. commit: the one the command started at (a command that writes files would otherwise find its own output
    and call the tree dirty)."""
    import datetime as dt
    import os
    import re

    from rag_assets.evaluation.provenance import REPO_ROOT, RESULTS, git_commit

    folder = folder or REPO_ROOT / RESULTS
    folder.mkdir(parents=True, exist_ok=True)
    now = dt.datetime.now(dt.timezone.utc)
    today = now.date().isoformat()
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    if len(slug) > SLUG_MAX:  # a command naming many sets would exceed the file system's 255 bytes a name
        slug = f"{slug[:SLUG_MAX - 9].rstrip('-')}-{hashlib.sha256(slug.encode()).hexdigest()[:8]}"
    path = folder / f"{today}-{slug}.md"
    run = f"## Run at {now:%H:%M:%S} UTC\n\n- commit: {commit or git_commit()}\n\n{body.rstrip()}\n"
    if path.exists():
        with path.open("a", encoding="utf-8") as out:
            out.write("\n" + run)
    else:
        header = f"# {name}\n\n- command: `{command}`\n- date: {today}\n- machine: {os.cpu_count()} cores\n\n"
        path.write_text(header + run, encoding="utf-8")
    return path
