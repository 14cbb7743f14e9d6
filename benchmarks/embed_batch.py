"""The local embedder's throughput by batch size, on SciFact abstracts (chunk-sized) and their sentences (what ingest
embeds for the answer step), in interleaved rounds, as ratios to batch 32 (the default before 2026-12-05) and to
the shipped default; and how far any batch size moves a text's vector from the one it gets alone."""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np

from rag_assets.evaluation.provenance import git_commit
from rag_assets.evaluation.public_sets import load_beir
from rag_serving.answer.sentences import split_sentences
from rag_serving.models.embedders import OnnxMiniLM

from .common import BENCH_DATA, recorded

BEFORE = 32


def texts(abstracts: int) -> dict[str, list[str]]:
    corpus, _, _ = load_beir(BENCH_DATA / "scifact", "test")
    passages = [d["text"] for d in list(corpus.values())[:abstracts]]
    return {"passages": passages, "sentences": [s for p in passages for _, s in split_sentences(p)]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--abstracts", type=int, default=150)
    parser.add_argument("--sizes", default="1,2,4,8,16,32")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    sets = texts(args.abstracts)
    sizes = sorted({int(s) for s in args.sizes.split(",")} | {BEFORE, OnnxMiniLM.batch_size})
    report = {"commit": git_commit(), "shipped_batch_size": OnnxMiniLM.batch_size,
              **{k: len(v) for k, v in sets.items()}, "runs": {}}
    for label, arena in (("ingest (arena on)", True), ("server (arena off)", False)):
        embedder = OnnxMiniLM(arena=arena)
        embedder.batch_size = 1
        alone = {k: embedder.embed(v) for k, v in sets.items()}  # also the warm-up
        rates: dict[int, dict[str, list[float]]] = {s: {k: [] for k in sets} for s in sizes}
        drift = 0.0
        for r in range(args.rounds):
            for size in random.Random(r).sample(sizes, len(sizes)):  # interleaved: drift in the machine hits all
                embedder.batch_size = size
                for kind, items in sets.items():
                    t0 = time.perf_counter()
                    vectors = embedder.embed(items)
                    rates[size][kind].append(len(items) / (time.perf_counter() - t0))
                    drift = max(drift, float(1 - np.min(np.sum(vectors * alone[kind], axis=1))))
        median = {s: {k: float(np.median(v)) for k, v in per.items()} for s, per in rates.items()}
        report["runs"][label] = {
            "texts_per_second": {s: {k: round(v, 1) for k, v in per.items()} for s, per in median.items()},
            f"over_batch_{BEFORE}": {s: {k: round(v / median[BEFORE][k], 2) for k, v in per.items()}
                                     for s, per in median.items()},
            "largest_cosine_distance_to_alone": drift,
        }
        print(label)
        print("| batch | passages/s | sentences/s | passages vs 32 | sentences vs 32 |")
        print("|---|---|---|---|---|")
        for s in sizes:
            m = median[s]
            print(f"| {s}{' (shipped)' if s == OnnxMiniLM.batch_size else ''} | {m['passages']:.1f} | "
                  f"{m['sentences']:.1f} | {m['passages'] / median[BEFORE]['passages']:.2f}x | "
                  f"{m['sentences'] / median[BEFORE]['sentences']:.2f}x |")
        print(f"largest cosine distance of a text's vector to its vector alone: {drift:.2e}\n", flush=True)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    with recorded("embed_batch"):
        main()
