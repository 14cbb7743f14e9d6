"""Sections: from the outline when present, from numbered or Markdown headings otherwise."""

from rag_assets.ingest.doctext import DocText
from rag_assets.ingest.extraction import MARKDOWN, PDF, PLAIN, OutlineEntry
from rag_assets.ingest.sections import detect_sections, top_level_segments

HANDBOOK_PAGES = [
    "Contents\n\n1 Welcome ........ 1\n2 Benefits ........ 2",
    "1 Welcome\n\nWe are glad you are here.",
    "2 Benefits\n\nAn overview.\n\n2.1 Health\n\nCover starts day one.",
    "2.2 Parental Leave\n\nSixteen weeks.",
]


def test_outline_gives_heading_paths_and_levels():
    doc = DocText(HANDBOOK_PAGES)
    outline = [
        OutlineEntry("1 Welcome", 1, 2),
        OutlineEntry("2 Benefits", 1, 3),
        OutlineEntry("2.1 Health", 2, 3),
        OutlineEntry("2.2 Parental Leave", 2, 4),
    ]
    sections = detect_sections(doc, outline, PDF)
    assert [s.heading_path for s in sections] == [
        "1 Welcome",
        "2 Benefits",
        "2 Benefits › 2.1 Health",
        "2 Benefits › 2.2 Parental Leave",
    ]
    assert [s.level for s in sections] == [1, 1, 2, 2]
    assert all(s.source == "outline" for s in sections)


def test_outline_section_starts_at_its_title_line_not_page_top():
    doc = DocText(HANDBOOK_PAGES)
    outline = [OutlineEntry("2 Benefits", 1, 3), OutlineEntry("2.1 Health", 2, 3)]
    health = detect_sections(doc, outline, PDF)[1]
    assert doc.text[health.start :].startswith("2.1 Health")
    assert doc.position(health.start).page_index == 3


def test_subsection_ends_where_the_next_sibling_starts():
    doc = DocText(HANDBOOK_PAGES)
    sections = detect_sections(doc, [], PDF)
    health = next(s for s in sections if s.title == "2.1 Health")
    assert doc.text[health.start : health.end].strip() == "2.1 Health\n\nCover starts day one."


def test_numbered_headings_are_found_without_outline_and_contents_lines_ignored():
    doc = DocText(HANDBOOK_PAGES)
    sections = detect_sections(doc, [], PDF)
    assert [s.title for s in sections] == ["1 Welcome", "2 Benefits", "2.1 Health", "2.2 Parental Leave"]
    # The contents page lines ("1 Welcome ........ 1") are not headings.
    assert doc.position(sections[0].start).page_index == 2


def test_numbered_line_that_breaks_the_numbering_is_not_a_heading():
    doc = DocText(["1 Scope\n\nText.\n\n7 Days are allowed per year\n\n2 Rules\n\nMore."])
    assert [s.title for s in detect_sections(doc, [], PDF)] == ["1 Scope", "2 Rules"]


def test_markdown_headings_make_sections():
    doc = DocText(["# Supplier FAQ\n\nIntro.\n\n## Invoices\n\nSend them.\n\n## Payment\n\n30 days."])
    sections = detect_sections(doc, [], MARKDOWN)
    assert [s.heading_path for s in sections] == ["Supplier FAQ", "Supplier FAQ › Invoices", "Supplier FAQ › Payment"]


def test_capitalized_lines_are_headings_in_plain_text():
    doc = DocText(["HELPDESK HOURS\n\nMonday to Friday.\n\nPRIORITIES\n\nP1 is urgent."])
    assert [s.title for s in detect_sections(doc, [], PLAIN)] == ["HELPDESK HOURS", "PRIORITIES"]


def test_top_level_segments_are_preamble_then_each_chapter():
    doc = DocText(HANDBOOK_PAGES)
    sections = detect_sections(doc, [], PDF)
    segments = top_level_segments(doc, sections)
    assert len(segments) == 3  # contents page (preamble), chapter 1, chapter 2
    assert doc.text[segments[0][0] : segments[0][1]].startswith("Contents")
    assert doc.text[segments[2][0] :].startswith("2 Benefits")


def test_duplicated_bookmark_makes_one_section():
    doc = DocText(["1 Scope\n\nText."])
    outline = [OutlineEntry("1 Scope", 1, 1), OutlineEntry("1 Scope", 1, 1)]
    assert [s.title for s in detect_sections(doc, outline, PDF)] == ["1 Scope"]
