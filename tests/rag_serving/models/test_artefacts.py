"""Shipped tree models: ONNX files giving scikit-learn's probabilities to many threads at once, without scikit-learn."""

import subprocess
import sys
import threading

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier

from rag_assets.evaluation.provenance import REPO_ROOT
from rag_assets.evaluation.training import dump
from rag_serving.models.artefacts import Trees


def fitted(rng):
    x = rng.normal(size=(400, 4))
    return HistGradientBoostingClassifier(max_iter=30).fit(x, (x[:, 0] + x[:, 1] * x[:, 2] > 0).astype(int))


def test_the_onnx_file_gives_the_classifiers_probabilities():
    rng = np.random.default_rng(0)
    model = fitted(rng)
    x = rng.normal(size=(5000, 4))
    # float32 inputs and leaf sums: equal to ~1e-7, far below anything a threshold or a ranking could tell apart.
    assert np.abs(Trees(dump(model), 4).positive(x) - model.predict_proba(x)[:, 1]).max() < 1e-5


def test_many_threads_sharing_one_model_each_get_the_probabilities_of_their_own_rows():
    rng = np.random.default_rng(1)
    model = fitted(rng)
    trees = Trees(dump(model), 4)
    rows = [rng.normal(size=(50, 4)) for _ in range(8)]
    alone = [trees.positive(x) for x in rows]
    barrier, seen = threading.Barrier(8), [[] for _ in range(8)]

    def request(i):
        barrier.wait()
        seen[i].extend(trees.positive(rows[i]) for _ in range(20))

    workers = [threading.Thread(target=request, args=(i,)) for i in range(8)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert all(len(s) == 20 and all(np.array_equal(got, a) for got in s) for s, a in zip(seen, alone))


def test_reading_the_shipped_models_imports_neither_scikit_learn_nor_skops():
    # Importing skops took 4 s (it imports all of scikit-learn to list its estimators), paid by every `rag ask`.
    probe = ("import json, sys; from rag_serving.answer.answerability import LearnedAnswerability; "
             "from rag_serving.answer.selection import LearnedSelection; "
             "from rag_serving.search.learned import default_artefact, read_artefact; "
             "embedder = json.load(open(default_artefact()))['embedder']; "
             "read_artefact(default_artefact(), embedder); LearnedAnswerability(embedder); LearnedSelection(embedder); "
             "print(sorted({'sklearn', 'skops'} & {n.split('.')[0] for n in sys.modules}))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=REPO_ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
