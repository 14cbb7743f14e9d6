"""Train learned answerability and answer selection on SQuAD 2.0 train and the golden dev split (never SQuAD dev,
MMLongBench or golden held-out), report each leave-one-collection-out against its hand-set formula, write both
artefacts."""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from pathlib import Path

import numpy as np
from psycopg.conninfo import make_conninfo

from rag_assets.evaluation import answerability as at
from rag_assets.evaluation import training as rt
from rag_assets.evaluation.golden import load_golden
from rag_assets.evaluation.provenance import git_commit
from rag_serving.answer import selection
from rag_serving.answer.answerability import FEATURES, LearnedAnswerability
from rag_serving.answer.vectors import SentenceVectors
from rag_serving.models.artefacts import shipped
from rag_serving.models.embedders import get_embedder
from rag_serving.spec import DEFAULT_SPEC
from rag_serving.store.sessions import APP_ROLE, Database
from rag_serving.wiring import Wiring

from .common import BENCH_DATA, recorded
from .train_reranker import GOLDEN, golden_database

FORMULA = FEATURES.index("formula")


def collect(embedder) -> list[at.Example]:
    t0 = time.perf_counter()
    examples = at.squad_examples(BENCH_DATA / "squad2-train" / "train-v2.0.first10.json", embedder,
                                 SentenceVectors(embedder))
    print(f"squad2-train: {len(examples)} examples, {sum(e.label for e in examples)} positive, "
          f"{time.perf_counter() - t0:.0f} s")
    database = Database(make_conninfo(golden_database(embedder), user=APP_ROLE), max_size=1)
    try:
        # The shipped spec at threshold 0: its own search and evidence, whatever routing would do. Routing on the
        # formula: the model being trained is never read, so a retrain after a feature change does not need the old one.
        pipeline = Wiring(database, embedder).pipeline(DEFAULT_SPEC.replace(threshold=0.0, answerability="formula"))
        golden = at.golden_examples(pipeline, load_golden(GOLDEN, "dev"))
    finally:
        database.close()
    print(f"golden-dev: {len(golden)} examples, {sum(e.label for e in golden)} positive")
    return examples + golden


def collection(e: at.Example) -> str:
    """A SQuAD article, or golden dev as a whole: what leave-one-collection-out holds out."""
    return e.group if e.source == "squad2-train" else e.source


def report(examples: list[at.Example]) -> dict:
    """Per collection: AUC of the formula and of each model scored by a model that never saw that collection."""
    oof = {name: at.leave_one_group_out(examples, make, collection)
           for name, make in (("logistic", rt.logistic), ("boosted_trees", at.boosted))}
    out = {}
    for source in sorted({e.source for e in examples}):
        idx = [i for i, e in enumerate(examples) if e.source == source]
        y = [examples[i].label for i in idx]
        out[source] = {"examples": len(idx), "positives": int(sum(y)),
                       "auc_formula": at.auc(y, [examples[i].row[0, FORMULA] for i in idx]),
                       **{f"auc_{n}": at.auc(y, p[idx]) for n, p in oof.items()},
                       **{f"ece_{n}": round(rt.expected_calibration_error(p[idx], np.array(y)), 4)
                          for n, p in oof.items()}}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=shipped(LearnedAnswerability.stem))
    parser.add_argument("--selection-out", type=Path, default=shipped(selection.LearnedSelection.stem))
    args = parser.parse_args()
    embedder = get_embedder("minilm")
    commit = git_commit()  # before the first artefact is written: the second would call the tree dirty
    examples = collect(embedder)
    metrics = {"leave_one_collection_out": report(examples)}
    print(json.dumps(metrics, indent=1))
    x, y, _, w = at.design(examples)
    write(rt.fit_weighted(at.boosted, x, y, w), examples, embedder, metrics, args.out, at.artefact, commit)

    chosen = {"leave_one_collection_out": at.selection_report(examples, collection)}
    print(json.dumps(chosen, indent=1))
    x, y, w, owner = at.sentence_design(examples)
    write(rt.fit_weighted(at.boosted, x, y, w), [examples[i] for i in sorted(set(owner))], embedder, chosen,
          args.selection_out, at.selection_artefact, commit)


def write(model, examples, embedder, metrics, out: Path, make, commit: str) -> None:
    blob = rt.dump(model)
    data = make(model, examples, embedder.model, metrics, commit, hashlib.sha256(blob).hexdigest())
    rt.write(data, blob, out)
    print(f"wrote {out} and its .onnx model ({len(blob):,} bytes; training digest {data['digest'][:12]})")


if __name__ == "__main__":
    with recorded("train_answerability"):
        main()
