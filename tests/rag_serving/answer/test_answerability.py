"""Learned answerability: its features, the refusal of a mismatched model file, and the shipped model telling a
passage that answers from one that does not."""

import json
import shutil

import numpy as np
import pytest

from rag_serving.answer.answerability import FEATURES, LearnedAnswerability, features
from rag_serving.answer.evidence import assess
from rag_serving.answer.vectors import SentenceVectors
from rag_serving.models.artefacts import ArtefactError, model_path, shipped
from rag_serving.search.query import Query
from tests.rag_serving.answer.test_evidence import hit

LEAVE = "Full-time employees get sixteen weeks of parental leave at full pay. Partners get four weeks."
PARKING = "Visitors park in the north lot. The gate opens at seven in the morning."
QUESTION = "How many weeks of parental leave do full-time employees get?"


def row(question, bodies, minilm):
    hits = [hit(b, chunk_id=f"c{i}") for i, b in enumerate(bodies)]
    return dict(zip(FEATURES, features(assess(Query(question, minilm), hits, SentenceVectors(minilm)))[0]))


def test_nothing_retrieved_leaves_only_the_question_features(minilm):
    r = row(QUESTION, [], minilm)
    assert r["passages"] == 0 and r["formula"] == 0 and r["kind_number"] == 1 and r["key_terms"] == 5


def test_features_read_the_best_sentence_and_every_passage(minilm):
    r = row(QUESTION, [PARKING, LEAVE], minilm)
    assert r["passages"] == 2 and r["best_rank"] == 2 and r["top_coverage"] < r["best_coverage"] == 1.0
    assert r["union_coverage"] == 1.0 and r["sentence_kind"] == 1 and r["sentence_gap"] > 0


def test_a_place_question_reads_as_one_of_no_particular_kind_to_the_models(minilm):
    # The shipped models were trained before "where" had a kind of its own; their columns stay as trained.
    r = row("Where do visitors park?", [PARKING], minilm)
    assert r["kind_any"] == 1 and not any(r[f] for f in FEATURES if f.startswith("kind_") and f != "kind_any")


def test_a_path_is_not_counted_among_the_strict_terms_the_models_read(minilm):
    # The models were trained before paths were strict terms; a question naming one is no less answerable for it.
    r = row("Must /usr be writable by the 2024 release?", [PARKING], minilm)
    assert r["strict_terms"] == 1  # the year


def test_a_name_in_code_is_not_counted_among_the_strict_terms_the_models_read(minilm):
    r = row("What is the default of the warning.length option in the 2024 release?", [PARKING], minilm)
    assert r["strict_terms"] == 1  # the year, not warning.length


@pytest.fixture(scope="module")
def model(minilm):
    return LearnedAnswerability(minilm.model)


def probability(model, minilm, question, bodies):
    hits = [hit(b, chunk_id=f"c{i}") for i, b in enumerate(bodies)]
    return model.probability(assess(Query(question, minilm), hits, SentenceVectors(minilm)))


def test_a_passage_that_answers_scores_above_one_that_does_not(model, minilm):
    answering = probability(model, minilm, QUESTION, [LEAVE, PARKING])
    unrelated = probability(model, minilm, QUESTION, [PARKING])
    assert 0 <= unrelated < answering <= 1


def test_the_shipped_model_records_its_training_sources_and_unseen_collection_scores(model):
    sources = model.artefact["training"]["sources"]
    assert set(sources) == {"squad2-train", "golden-dev"}  # never SQuAD dev, MMLongBench or golden held-out
    scores = model.artefact["metrics"]["leave_one_collection_out"]
    assert {"auc_formula", "auc_boosted_trees"} <= set(scores["squad2-train"])


def test_a_model_file_trained_on_other_features_is_refused_naming_the_file(tmp_path, minilm):
    meta = tmp_path / "answerability.json"
    shutil.copy(shipped("answerability"), meta)
    shutil.copy(model_path(shipped("answerability")), model_path(meta))
    data = json.loads(meta.read_text())
    meta.write_text(json.dumps({**data, "features": data["features"][:-1]}))
    with pytest.raises(ArtefactError, match="answerability model .*answerability.json: trained on features"):
        LearnedAnswerability(minilm.model, path=meta)


def test_probabilities_are_those_of_the_model_file(model, minilm):
    x = np.zeros((1, len(FEATURES)))
    assert 0 <= model.trees.positive(x)[0] <= 1
