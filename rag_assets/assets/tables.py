"""Evaluation results as Dagster table metadata (sortable in the UI) and the float series the UI plots over runs."""

from __future__ import annotations

from dagster import MetadataValue, TableColumn, TableRecord, TableSchema

from rag_assets.evaluation.ablation import FULL

RATES = ("false_answer_rate", "over_abstention_rate", "correct_rate", "clarified_rate", "grounding_failed_rate")
RETRIEVAL = ("hit@10", "mrr@10", "ndcg@10")
# The rows the asset's plots follow from night to night: a float per key, one point per materialization.
SERIES = ("ndcg@10", "false_answer_rate", "over_abstention_rate", "correct_rate")


def _table(columns: list[tuple[str, str]], rows: list[dict]) -> MetadataValue:
    schema = TableSchema(columns=[TableColumn(name, kind) for name, kind in columns])
    return MetadataValue.table([TableRecord({name: row.get(name) for name, _ in columns}) for row in rows], schema)


def ablation_rows(result: dict) -> MetadataValue:
    """One record per configuration: retrieval metrics, each rate with its 95% interval, latency."""
    columns = [("configuration", "string"), *((m, "float") for m in RETRIEVAL)]
    for rate in RATES:
        columns += [(rate, "float"), (f"{rate} low", "float"), (f"{rate} high", "float")]
    columns += [("p50 ms", "float"), ("p95 ms", "float"), ("digest", "string")]
    rows = []
    for row in result["rows"]:
        record = {"configuration": row["config"], "p50 ms": row.get("p50_ms"), "p95 ms": row.get("p95_ms"),
                  "digest": row["digest"], **{m: row.get(m) for m in RETRIEVAL}}
        for rate in RATES:
            ci = row.get(f"{rate}_ci") or [None, None]
            record.update({rate: row.get(rate), f"{rate} low": ci[0], f"{rate} high": ci[1]})
        rows.append(record)
    return _table(columns, rows)


def comparisons(result: dict) -> MetadataValue:
    """Per configuration and metric: better / worse / same questions against the row it is measured by, and the
    paired bootstrap interval of the mean difference."""
    columns = [("configuration", "string"), ("vs", "string"), ("metric", "string"), ("better", "int"),
               ("worse", "int"), ("same", "int"), ("mean diff", "float"), ("low", "float"), ("high", "float"),
               ("significant", "bool")]
    rows = [{"configuration": row["config"], "vs": c["against"], "metric": c["metric"], "better": c["better"],
             "worse": c["worse"], "same": c["same"], "mean diff": round(c["mean_diff"], 4), "low": round(c["low"], 4),
             "high": round(c["high"], 4), "significant": c["significant"]}
            for row in result["rows"] for c in row["comparisons"]]
    return _table(columns, rows)


def series(result: dict) -> dict[str, MetadataValue]:
    """Floats per configuration for the UI's plots; a rate the split cannot measure (no such questions) is left out."""
    out = {}
    for row in result["rows"]:
        name = "full pipeline" if row["config"] == FULL else row["config"]
        for metric in SERIES:
            if row.get(metric) is not None:
                out[f"{name} {metric}"] = MetadataValue.float(float(row[metric]))
    return out


def threshold_table(table: list[dict], chosen: dict) -> MetadataValue:
    columns = [("threshold", "float"), ("false_answer_rate", "float"), ("over_abstention_rate", "float"),
               ("correct_rate", "float"), ("answered", "int"), ("chosen", "bool")]
    return _table(columns, [{**r, "chosen": r["threshold"] == chosen["threshold"]} for r in table])


def sweep_rows(result: dict) -> MetadataValue:
    """One record per chunk setting: what its build made and how the golden cases scored on it."""
    columns = [("configuration", "string"), ("size", "int"), ("overlap", "int"), ("snap", "int"), ("files", "int"),
               ("failed", "int"), ("chunks", "int"), ("mean_tokens", "float"), ("ingest_seconds", "float"),
               ("cache_hit_rate", "float"), *((m, "float") for m in RETRIEVAL), *((r, "float") for r in RATES[:3]),
               ("p50 ms", "float")]
    return _table(columns, [{**row, "configuration": row["config"], "p50 ms": row.get("p50_ms")}
                            for row in result["rows"]])
