"""`rag demo` on a fresh machine's embedded default, twice: the second run skips every file. A file of its own, as the
suite's longest test, so the two workers of `make test` can share the rest of the command line's tests."""

import re

from tests.rag_assets.cli.commands import run


def test_demo_ingests_the_sample_corpus_then_skips_everything_on_the_second_run(embedded_env):
    first = run(["demo"], embedded_env)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "acme/hq" in first.stdout and "acme/north-yard" in first.stdout and "globex/main" in first.stdout
    assert " 0 failed" in first.stdout and "unchanged (skipped)" in first.stdout
    assert "hits (hybrid" in first.stdout and "yard-memo-scanned.pdf#page=" in first.stdout  # cited searches
    # One answered with a footnote, one abstained, one clarified; then the ablation with answer metrics.
    assert "route: answer" in first.stdout and "[1] Employee Handbook 2025, p" in first.stdout
    assert "route: abstain" in first.stdout and "route: clarify" in first.stdout
    assert "false-answer rate" in first.stdout and "over-abstention rate" in first.stdout
    # It ends with what to try next: the answer page and API docs at the address `rag serve` binds, and the UI.
    assert "the answer page at http://127.0.0.1:8000/" in first.stdout and "rag ui" in first.stdout
    second = run(["demo", "--no-ablation"], embedded_env)
    assert second.returncode == 0, second.stdout + second.stderr
    file_lines = [line for line in second.stdout.splitlines() if re.match(r"\[\d+/\d+\]", line)]
    assert file_lines and all("unchanged (sha256" in line for line in file_lines)
    assert " 0 new, 0 changed, 0 retried" in second.stdout
