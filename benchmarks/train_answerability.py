"""Train learned answerability and answer selection on SQuAD 2.0 train and the golden dev split (never SQuAD dev,
MMLongBench or golden held-out), report each leave-one-collection-out against its hand-set formula, write both
artefacts. `--written DIR …` adds the written question sets (benchmarks/questions/DIR, ingested in the configured
database as each header says) as a third source and reports answerability on each set by a model that never saw it;
`--report-only` writes no artefact."""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import time
from pathlib import Path

import numpy as np
from psycopg.conninfo import make_conninfo

from rag_assets.evaluation import answerability as at
from rag_assets.evaluation import sources
from rag_assets.evaluation import training as rt
from rag_assets.evaluation.golden import GoldenError, load_golden
from rag_assets.evaluation.provenance import git_commit
from rag_assets.settings import load_settings
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
QUESTIONS = Path(__file__).resolve().parent / "questions"


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


def written_examples(embedder, names: list[str]) -> list[at.Example]:
    """Each written set's cases through the shipped search and evidence on the live database, one group per set."""
    out = []
    for name in names:
        try:
            source = sources.golden(load_settings(), QUESTIONS / name, "dev")
        except GoldenError as exc:
            raise SystemExit(f"{name}: {exc} (ingest it as benchmarks/questions/{name}'s header says)") from exc
        try:
            pipeline = Wiring(source.database, embedder).pipeline(DEFAULT_SPEC.replace(threshold=0.0,
                                                                                        answerability="formula"))
            found = at.golden_examples(pipeline, source.cases, source="written")
        finally:
            source.close()
        out += [dataclasses.replace(e, group=name) for e in found]
        print(f"written/{name}: {len(found)} examples, {sum(e.label for e in found)} positive")
    return out


def collection(e: at.Example) -> str:
    """A SQuAD article, a written set, or golden dev as a whole: what leave-one-collection-out holds out."""
    return e.group if e.source in ("squad2-train", "written") else e.source


def written_report(base: list[at.Example], written: list[at.Example]) -> dict:
    """Per written set: AUC of the formula, of the shipped recipe (SQuAD 2.0 train and golden dev, no written set)
    and of a model trained on those and every other written set; then all sets pooled, with the share of
    negatives at or above 0.5 (would be answered) and of positives below it (refused), the formula at 0.8."""
    without = rt.fit_weighted(at.boosted, *_xyw(base))
    names = sorted({e.group for e in written})
    scores: dict[str, list] = {"formula": [], "without_written": [], "with_other_written": []}
    labels, out = [], {}
    for name in names:
        test = [e for e in written if e.group == name]
        x = np.vstack([e.row for e in test])
        y = [e.label for e in test]
        loco = rt.fit_weighted(at.boosted, *_xyw(base + [e for e in written if e.group != name]))
        found = {"formula": x[:, FORMULA], "without_written": without.predict_proba(x)[:, 1],
                 "with_other_written": loco.predict_proba(x)[:, 1]}
        out[name] = {"examples": len(y), "positives": int(sum(y)),
                     **{f"auc_{k}": at.auc(y, v) for k, v in found.items()}}
        for k, v in found.items():
            scores[k] += list(v)
        labels += y
    y = np.array(labels)
    out["pooled"] = {k: {"auc": at.auc(list(y), v), "negatives_answered": round(float(np.mean(
        np.array(v)[y == 0] >= (0.8 if k == "formula" else 0.5))), 3), "positives_refused": round(float(np.mean(
        np.array(v)[y == 1] < (0.8 if k == "formula" else 0.5))), 3)} for k, v in scores.items()}
    return out


def written_selection_report(base: list[at.Example], written: list[at.Example]) -> dict:
    """Per written set and pooled: how often the top sentence holds the answer by the hand-set score, by the shipped
    recipe's selector and by one trained on those and every other written set."""
    from rag_serving.answer.selection import FEATURES as SENTENCE_FEATURES

    without = rt.fit_weighted(at.boosted, *_sentence_xyw(base))
    held: dict[str, int] = {"formula": 0, "without_written": 0, "with_other_written": 0}  # questions whose top holds
    out, questions = {}, 0
    for name in sorted({e.group for e in written}):
        test = [e for e in written if e.group == name and e.sentences is not None]
        if not test:
            continue
        x, _, _, owner = at.sentence_design(test)
        loco = rt.fit_weighted(at.boosted, *_sentence_xyw(base + [e for e in written if e.group != name]))
        found = {"formula": x[:, SENTENCE_FEATURES.index("score")], "without_written": without.predict_proba(x)[:, 1],
                 "with_other_written": loco.predict_proba(x)[:, 1]}
        out[name] = {"questions": len(test)}
        questions += len(test)
        for k, v in found.items():
            share = at.top1_holds(test, v, owner)["written"]
            held[k] += round(share * len(test))  # a share of at most a few dozen questions, to 3 places: exact
            out[name][f"top1_{k}"] = share
    out["pooled"] = {"questions": questions, **{f"top1_{k}": round(v / questions, 3) for k, v in held.items()}}
    return out


def _sentence_xyw(examples: list[at.Example]):
    x, y, w, _ = at.sentence_design(examples)
    return x, y, w


def _xyw(examples: list[at.Example]):
    x, y, _, w = at.design(examples)
    return x, y, w


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
    parser.add_argument("--written", nargs="+", default=[], metavar="DIR",
                        help="written question sets (benchmarks/questions/DIR) to train on and report by")
    parser.add_argument("--report-only", action="store_true", help="print the reports, write no artefact")
    args = parser.parse_args()
    embedder = get_embedder("minilm")
    commit = git_commit()  # before the first artefact is written: the second would call the tree dirty
    base = collect(embedder)
    written = written_examples(embedder, args.written)
    if written:
        print(json.dumps({"written_sets_one_left_out": written_report(base, written)}, indent=1))
        print(json.dumps({"written_sets_selection_one_left_out": written_selection_report(base, written)}, indent=1))
    examples = base + written
    if args.report_only:
        return
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
