"""Query expansion: synonyms from YAML (acronyms case-sensitive), multi-query and HyDE parsing, the three-variant cap."""

import pytest
from fastapi import FastAPI

from rag_serving.answer.generators import OpenAICompatibleGenerator
from rag_serving.search.expansion import Hyde, MultiQuery, Synonyms, SynonymsError
from rag_serving.search.legs import Retriever
from rag_serving.search.pipeline import Searcher, SearchPlan
from rag_serving.search.query import Query
from rag_serving.store.sessions import Tenant
from tests.servers import serve


def test_a_question_naming_one_term_is_searched_with_its_group_appended():
    synonyms = Synonyms([["EAP", "employee assistance program", "counseling"], ["PO", "purchase order"]])
    assert synonyms.variants("How many sessions does the EAP offer?") == [
        "How many sessions does the EAP offer? employee assistance program counseling"]


def test_acronyms_match_only_in_capitals_and_other_terms_ignore_case():
    synonyms = Synonyms([["IT", "information technology"], ["purchase order", "PO"]])
    assert synonyms.variants("Is it allowed?") == []
    assert synonyms.variants("Who signs a Purchase Order?") == ["Who signs a Purchase Order? PO"]


def test_a_term_inside_a_longer_word_does_not_match():
    assert Synonyms([["PO", "purchase order"]]).variants("Where is the POS terminal?") == []


def test_a_malformed_synonyms_file_is_refused_naming_it(tmp_path):
    path = tmp_path / "synonyms.yaml"
    path.write_text("- [PTO]\n")
    with pytest.raises(SynonymsError, match="synonyms.yaml: group 1 needs at least two terms"):
        Synonyms.load(path)


def test_the_sample_synonyms_file_loads():
    from importlib import resources

    synonyms = Synonyms.load(resources.files("rag_assets.samples") / "synonyms.yaml")
    assert synonyms.variants("What is TOIL?") == ["What is TOIL? time off in lieu comp time compensatory time"]


def scripted(reply: str):
    app = FastAPI()

    @app.post("/v1/chat/completions")
    def completions(body: dict) -> dict:
        return {"id": "x", "object": "chat.completion", "created": 0, "model": body["model"],
                "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": reply}}]}

    return app


def test_multi_query_keeps_two_new_phrasings_without_list_markers_or_repeats():
    reply = "1. How long is parental leave?\n2. how long is parental leave?\n- Weeks off for new parents\n3. Baby leave"
    with serve(scripted(reply), "/docs") as base:
        variants = MultiQuery(OpenAICompatibleGenerator("m", base_url=f"{base}/v1")).variants("parental leave length")
    assert variants == ["How long is parental leave?", "Weeks off for new parents"]


def test_hyde_returns_the_hypothetical_passage():
    with serve(scripted("Full-time staff receive 16 weeks of paid parental leave."), "/docs") as base:
        variants = Hyde(OpenAICompatibleGenerator("m", base_url=f"{base}/v1")).variants("parental leave?")
    assert variants == ["Full-time staff receive 16 weeks of paid parental leave."]


class Fixed:
    name = "fixed"

    def __init__(self, texts):
        self.texts = texts

    def variants(self, question):
        return list(self.texts)


def test_searcher_caps_variants_at_three_and_fuses_them(corpus_app_db, minilm):
    tenant = Tenant("acme", ("hq",))
    extra = Fixed(["forklift licence", "TOIL hour for hour", "MFA hardware keys"])
    searcher = Searcher(Retriever(minilm), SearchPlan(expanders=(extra,)))
    assert searcher.expansions("parental leave") == ["forklift licence", "TOIL hour for hour"]
    with corpus_app_db.session(tenant) as session:
        fused = searcher.search(session, Query("parental leave", minilm), k=30)
    assert any("TOIL" in h.body for h in fused) and any("parental leave" in h.body.lower() for h in fused)
    assert not any("FIDO2" in h.body for h in fused)  # the third variant was never searched
    assert len({h.chunk_id for h in fused}) == len(fused)
