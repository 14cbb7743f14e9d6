"""Answerability training data from SQuAD-shaped articles: a positive and a hard negative per answerable question,
a negative per impossible one, and folds that hold a collection out whole."""

import json

from rag_assets.evaluation import answerability as at
from rag_assets.evaluation.training import logistic
from rag_serving.answer.vectors import SentenceVectors

ARTICLE = {"data": [{"title": "Leave", "paragraphs": [
    {"context": "Full-time staff get sixteen weeks of parental leave at full pay.",
     "qas": [{"id": "a", "question": "How many weeks of parental leave do staff get?", "is_impossible": False,
              "answers": [{"text": "sixteen weeks", "answer_start": 20}]},
             {"id": "b", "question": "How many weeks of sabbatical leave do staff get?", "is_impossible": True,
              "answers": []}]},
    {"context": "Visitors park in the north lot.", "qas": []},
]}]}


def test_an_answerable_question_gives_a_positive_and_a_negative_without_its_paragraph(tmp_path, minilm):
    path = tmp_path / "train.json"
    path.write_text(json.dumps(ARTICLE))
    examples = at.squad_examples(path, minilm, SentenceVectors(minilm), passages=1)
    assert [(e.question[:30], e.label) for e in examples] == [
        ("How many weeks of parental lea", 1),  # its paragraph ranks first
        ("How many weeks of parental lea", 0),  # the parking paragraph alone
        ("How many weeks of sabbatical l", 0),  # impossible
    ]
    assert {e.group for e in examples} == {"Leave"}


def test_each_source_carries_the_same_total_weight():
    import numpy as np

    examples = [at.Example("a", "g1", "q", 1, np.zeros((1, 2)))] * 3 + [at.Example("b", "g2", "q", 0, np.zeros((1, 2)))]
    _, _, _, w = at.design(examples)
    assert w[:3].sum() == w[3:].sum() == 2.0


def test_a_held_out_group_is_scored_by_a_model_that_never_saw_it():
    import numpy as np

    # Group "x" is labelled the opposite way from group "y": a model that saw neither's own rows gets them wrong.
    rows = [at.Example("s", g, "q", label, np.array([[v]])) for g, flip in (("x", 0), ("y", 1))
            for v in np.linspace(0, 1, 40) for label in [int((v > 0.5) != flip)]]
    oof = at.leave_one_group_out(rows, logistic, lambda e: e.group)
    y = np.array([e.label for e in rows])
    assert at.auc(list(y), list(oof)) < 0.2
