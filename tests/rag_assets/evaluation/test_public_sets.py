"""Public-set loaders on small files written here in each set's own format."""

import json

from rag_assets.evaluation.public_sets import load_beir, load_mmlongbench, load_squad2


def test_mmlongbench_not_answerable_becomes_abstain_and_pages_stay_physical(tmp_path):
    samples = [
        {"doc_id": "a.pdf", "question": "q1", "answer": "18%", "evidence_pages": "[3, 5]",
         "evidence_sources": "['Pure-text (Plain-text)', 'Table']", "answer_format": "Str"},
        {"doc_id": "a.pdf", "question": "q2", "answer": "Not answerable", "evidence_pages": "[]",
         "evidence_sources": "[]", "answer_format": "None"},
        {"doc_id": "b.pdf", "question": "q3", "answer": "4", "evidence_pages": "[7]",
         "evidence_sources": "['Chart']", "answer_format": "Int"},
    ]
    (tmp_path / "samples.json").write_text(json.dumps(samples))
    c1, c2, c3 = load_mmlongbench(tmp_path)
    assert [(r.document, r.page) for r in c1.relevant] == [("a.pdf", 3), ("a.pdf", 5)]
    assert c1.documents == ["a.pdf"] and set(c1.tags) >= {"text", "table"}
    assert c2.expect == "abstain" and c2.relevant == []
    assert "visual-only" in c3.tags and "visual-only" not in c1.tags


def test_mmlongbench_page_zero_is_dropped_and_tagged(tmp_path):
    samples = [{"doc_id": "a.pdf", "question": "q", "answer": "x", "evidence_pages": "[0, 2]",
                "evidence_sources": "['Table']", "answer_format": "Str"}]
    (tmp_path / "samples.json").write_text(json.dumps(samples))
    (case,) = load_mmlongbench(tmp_path)
    assert [r.page for r in case.relevant] == [2] and "invalid-evidence-page" in case.tags


def test_squad2_impossible_questions_abstain(tmp_path):
    data = {"version": "v2.0", "data": [{"title": "Normans", "paragraphs": [{"context": "The Normans ...", "qas": [
        {"id": "x1", "question": "Who?", "is_impossible": False, "answers": [{"text": "Rollo", "answer_start": 0}]},
        {"id": "x2", "question": "When?", "is_impossible": True, "answers": []}]}]}]}
    path = tmp_path / "dev.json"
    path.write_text(json.dumps(data))
    docs, cases = load_squad2(path)
    assert docs == [{"source_path": "Normans-000.txt", "text": "The Normans ..."}]
    assert cases[0].relevant[0].document == "Normans-000.txt" and cases[0].answer_must_include == ["Rollo"]
    assert cases[1].expect == "abstain"


def test_beir_folder_gives_corpus_queries_and_graded_qrels(tmp_path):
    (tmp_path / "qrels").mkdir()
    (tmp_path / "corpus.jsonl").write_text(json.dumps({"_id": "d1", "title": "T", "text": "x"}) + "\n")
    (tmp_path / "queries.jsonl").write_text(json.dumps({"_id": "q1", "text": "what"}) + "\n")
    (tmp_path / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t2\n")
    corpus, queries, qrels = load_beir(tmp_path)
    assert set(corpus) == {"d1"} and queries == {"q1": "what"} and qrels == {"q1": {"d1": 2}}
