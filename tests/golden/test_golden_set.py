"""Consistency checks for the golden evaluation set (golden/*.yaml) against the generated sample corpus.

Every relevant (document, physical page) must exist for the case's tenant, every expected answer
string must be printed on a grade-2 page (text taken with the ingest's own extractor, OCR on), and
the set must keep its promised shape: size, abstentions, follow-ups, cross-tenant traps, split.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

from rag_assets.evaluation.golden import load_golden
from rag_assets.ingest.extraction import extract

GOLDEN_DIR = Path(__file__).resolve().parents[2] / "golden"

TAGS = {
    "lookup", "code", "paraphrase", "table", "single-hop", "multi-hop", "follow-up", "rewrite", "scoped",
    "ocr", "injection", "adversarial", "no-answer", "out-of-scope", "false-premise", "near-miss",
    "cross-tenant", "ambiguous",
}
ABSTAIN_KINDS = {"out-of-scope", "false-premise", "near-miss", "cross-tenant", "injection"}
REQUIRED = ("id", "tenant", "question", "relevant", "tags", "split")
ID_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*-\d{3}$")


def _load_raw() -> list[tuple[str, dict]]:
    found: list[tuple[str, dict]] = []
    for path in sorted(GOLDEN_DIR.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or []
        assert isinstance(data, list), f"{path.name}: expected a YAML list of cases"
        found.extend((path.name, case) for case in data)
    return found


RAW = _load_raw()
CASES = [case for _, case in RAW]
ANSWERABLE = [c for c in CASES if c.get("expect", "answer") == "answer"]
CLARIFY = [c for c in CASES if c.get("expect") == "clarify"]
ABSTAIN = [c for c in CASES if c.get("expect") == "abstain"]
CROSS_TENANT = [c for c in CASES if "cross-tenant" in c.get("tags", [])]


def _ids(cases):
    return [str(c.get("id")) for c in cases]


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


@functools.lru_cache(maxsize=None)
def _pages(path: Path) -> tuple[str, ...]:
    """Whitespace-normalized, case-folded text of each physical page (index 0 = page 1); extracted once per file."""
    doc = extract(path.name, path.read_bytes(), ocr_enabled=True)
    assert [p.index for p in doc.pages] == list(range(1, len(doc.pages) + 1))
    return tuple(_norm(p.text) for p in doc.pages)


def _corpus_documents(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file() and not p.name.endswith(".meta.yaml"))


def _tenant_dirs(root: Path, case: dict) -> list[Path]:
    tenant = case["tenant"]
    return [root / tenant["organization"] / rooftop for rooftop in tenant["rooftops"]]


def _resolve(root: Path, case: dict, document: str) -> Path | None:
    """The corpus file for a relevant document within the case's tenant, or None."""
    hits = [d / document for d in _tenant_dirs(root, case) if (d / document).is_file()]
    assert len(hits) <= 1, f"{case['id']}: {document} is ambiguous across rooftops {hits}"
    return hits[0] if hits else None


# --- the set as a whole ------------------------------------------------------------------------


def test_golden_folder_has_yaml_files():
    assert sorted(GOLDEN_DIR.glob("*.yaml")), f"no *.yaml under {GOLDEN_DIR}"


def test_at_least_60_cases():
    assert len(CASES) >= 60, len(CASES)


def test_case_ids_are_unique():
    counts = Counter(_ids(CASES))
    assert not [i for i, n in counts.items() if n > 1]


def test_case_ids_are_kebab_case_with_topic_prefix():
    assert [i for i in _ids(CASES) if not ID_PATTERN.match(i)] == []


def test_cases_load_with_the_project_loader():
    assert len(load_golden(GOLDEN_DIR, split="all")) == len(CASES)


def test_at_least_12_abstain_cases():
    assert len(ABSTAIN) >= 12, len(ABSTAIN)


def test_at_least_5_follow_ups_with_history():
    follow_ups = [c for c in CASES if "follow-up" in c.get("tags", []) and c.get("history")]
    assert len(follow_ups) >= 5, _ids(follow_ups)


def test_heldout_share_is_between_15_and_25_percent():
    share = sum(c.get("split") == "heldout" for c in CASES) / len(CASES)
    assert 0.15 <= share <= 0.25, share


def test_every_corpus_document_has_an_answerable_case(sample_corpus):
    covered = set()
    for case in ANSWERABLE:
        for rel in case["relevant"]:
            path = _resolve(sample_corpus, case, rel["document"])
            if path is not None and rel["grade"] == 2:
                covered.add(path.relative_to(sample_corpus).as_posix())
    expected = {p.relative_to(sample_corpus).as_posix() for p in _corpus_documents(sample_corpus)}
    assert expected - covered == set()


def test_ocr_only_page_is_covered(sample_corpus):
    memo = [
        c for c in ANSWERABLE
        if "ocr" in c["tags"] and {"document": "yard-memo-scanned.pdf", "page": 2, "grade": 2} in c["relevant"]
    ]
    assert memo
    assert extract("yard-memo-scanned.pdf", (sample_corpus / "acme/north-yard/yard-memo-scanned.pdf").read_bytes(),
                   ocr_enabled=False).pages[1].unreadable


# --- each case ---------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=_ids(CASES))
def test_case_has_required_fields(case):
    missing = [f for f in REQUIRED if f not in case]
    assert not missing, missing
    assert isinstance(case["tenant"].get("organization"), str) and case["tenant"]["organization"]
    assert isinstance(case["tenant"].get("rooftops"), list) and case["tenant"]["rooftops"]
    assert isinstance(case["question"], str) and case["question"].strip()
    assert case["split"] in {"dev", "heldout"}
    assert case.get("expect", "answer") in {"answer", "abstain", "clarify"}


@pytest.mark.parametrize("case", CASES, ids=_ids(CASES))
def test_case_tags_are_known(case):
    assert case["tags"] and set(case["tags"]) <= TAGS, set(case["tags"]) - TAGS


@pytest.mark.parametrize("case", CASES, ids=_ids(CASES))
def test_follow_up_tag_matches_history(case):
    assert ("follow-up" in case["tags"]) == bool(case.get("history"))


@pytest.mark.parametrize("case", ANSWERABLE, ids=_ids(ANSWERABLE))
def test_answerable_case_has_grade2_page_and_answer_strings(case):
    assert any(r["grade"] == 2 for r in case["relevant"])
    assert case.get("answer_must_include") and all(isinstance(s, str) and s.strip() for s in case["answer_must_include"])


@pytest.mark.parametrize("case", ANSWERABLE, ids=_ids(ANSWERABLE))
def test_multi_hop_case_has_two_grade2_pages(case):
    grade2 = {(r["document"], r["page"]) for r in case["relevant"] if r["grade"] == 2}
    if "multi-hop" in case["tags"]:
        assert len(grade2) >= 2, grade2
    else:
        assert "single-hop" in case["tags"]


@pytest.mark.parametrize("case", ABSTAIN, ids=_ids(ABSTAIN))
def test_abstain_case_has_no_relevant_pages_or_answer(case):
    assert case["relevant"] == []
    assert not case.get("answer_must_include")
    assert "no-answer" in case["tags"]
    assert len(ABSTAIN_KINDS & set(case["tags"])) == 1, case["tags"]


@pytest.mark.parametrize("case", CLARIFY, ids=_ids(CLARIFY))
def test_clarify_case_is_ambiguous_without_history_or_answer(case):
    assert case["relevant"] == [] and not case.get("answer_must_include") and not case.get("history")
    assert case["tags"] == ["ambiguous"]


def test_at_least_three_clarify_cases():
    assert len(CLARIFY) >= 3


@pytest.mark.parametrize("case", ANSWERABLE, ids=_ids(ANSWERABLE))
def test_relevant_documents_exist_for_tenant(case, sample_corpus):
    missing = [r["document"] for r in case["relevant"] if _resolve(sample_corpus, case, r["document"]) is None]
    assert not missing, f"not in {[str(d) for d in _tenant_dirs(sample_corpus, case)]}: {missing}"


@pytest.mark.parametrize("case", ANSWERABLE, ids=_ids(ANSWERABLE))
def test_relevant_pages_within_page_count(case, sample_corpus):
    for rel in case["relevant"]:
        path = _resolve(sample_corpus, case, rel["document"])
        assert path is not None, rel["document"]
        assert 1 <= rel["page"] <= len(_pages(path)), (rel, len(_pages(path)))


@pytest.mark.parametrize("case", ANSWERABLE, ids=_ids(ANSWERABLE))
def test_answer_strings_occur_on_a_grade2_page(case, sample_corpus):
    texts = []
    for rel in case["relevant"]:
        if rel["grade"] == 2:
            path = _resolve(sample_corpus, case, rel["document"])
            assert path is not None, rel["document"]
            texts.append(_pages(path)[rel["page"] - 1])
    missing = [s for s in case["answer_must_include"] if not any(_norm(s) in t for t in texts)]
    assert not missing, missing


@pytest.mark.parametrize("case", CROSS_TENANT, ids=_ids(CROSS_TENANT))
def test_cross_tenant_answer_exists_only_in_another_tenant(case, sample_corpus):
    assert case.get("answer_elsewhere"), "cross-tenant cases name the answer term in answer_elsewhere"
    own_dirs = _tenant_dirs(sample_corpus, case)
    own, other = [], []
    for path in _corpus_documents(sample_corpus):
        (own if any(d in path.parents for d in own_dirs) else other).append(path)
    assert own and other
    for term in case["answer_elsewhere"]:
        needle = _norm(term)
        assert not [p.name for p in own if any(needle in t for t in _pages(p))], f"{term!r} is in the tenant's own documents"
        assert [p.name for p in other if any(needle in t for t in _pages(p))], f"{term!r} is in no other tenant's documents"
