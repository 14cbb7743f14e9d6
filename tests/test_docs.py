"""The README is a front door that stays true: two commands first, short, the shipped spec named, links that resolve."""

import re
from pathlib import Path

import pytest

from rag_assets.cli.config import reference
from rag_assets.settings import load_settings

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = sorted([ROOT / "README.md", ROOT / "CHUNKING.md", ROOT / "golden" / "README.md", *(ROOT / "docs").glob("*.md")])
LINK = re.compile(r"\]\(([^)#]+)(?:#[^)]*)?\)")


def test_the_readme_starts_with_the_two_commands_and_stays_short():
    first_block = README.split("```")[1]
    assert "make demo" in first_block.splitlines()[1] and "make test" in first_block.splitlines()[2]
    assert len(README.splitlines()) <= 200


def test_the_readme_names_the_spec_that_ships():
    named = set(re.findall(r"spec `([0-9a-f]{12})`", README))
    assert named == {load_settings({}).pipeline().digest}


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_stay_inside_the_repository_and_resolve(doc):
    text = doc.read_text(encoding="utf-8")
    assert "../shared" not in text and "/work/" not in text
    for target in LINK.findall(text):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        assert not any(c.isspace() for c in target), f"{doc.name}: a link broken across lines: {target!r}"
        resolved = (doc.parent / target).resolve()
        assert resolved.is_relative_to(ROOT) and resolved.exists(), f"{doc.name}: {target}"


def test_the_configuration_reference_is_generated_from_the_settings_model():
    assert (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8") == reference()
