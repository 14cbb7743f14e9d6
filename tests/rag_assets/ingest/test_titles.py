"""Document titles: a PDF's own title when it reads like one, never an identifier from its metadata; page one's
largest type over its first line."""

import io
from pathlib import Path

from pypdf import PdfReader, PdfWriter

from rag_assets.ingest.extraction import OutlineEntry, read_pdf
from rag_assets.ingest.targets import Target
from rag_assets.ingest.titles import choose_title, typeset_title
from rag_assets.resources import OcrResource
from tests.pdfs import text_pdf, typeset_pdf
from tests.rag_assets.assets.test_ingest import run_batch

ACCESSION = "0000004962-23-000006"
SEC_COVER = (
    "UNITED STATES\n"
    "SECURITIES AND EXCHANGE COMMISSION\n"
    "Washington, D.C. 20549\n"
    "FORM 10-K\n"
    "ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934\n"
    "For the fiscal year ended December 31, 2022\n"
    "Commission File No. 1-7657\n"
    "AMERICAN EXPRESS COMPANY\n"
    "(Exact name of registrant as specified in its charter)\n"
    "New York"
)


def test_accession_number_is_rejected_for_the_first_title_line_of_page_one():
    # "Page 1" is a page mark and "March 3, 2023" a date; the next line is the first that reads like a title.
    first_page = "Page 1\nMarch 3, 2023\nNorthwind Traders Annual Report\nThis report covers the year to December."
    title = choose_title("0000004962 23 000006", metadata=ACCESSION, first_page=first_page)
    assert title == "Northwind Traders Annual Report"


def test_form_cover_page_is_titled_by_the_filer_name_and_form():
    # The name printed above "(Exact name of registrant ...)" plus the "FORM 10-K" line above it.
    assert choose_title("Amex 10k", metadata=ACCESSION, first_page=SEC_COVER) == "AMERICAN EXPRESS COMPANY Form 10-K"


def test_a_one_word_name_atop_page_one_is_named_with_the_title_under_it():
    first_page = "Libtasn1\n   Abstract Syntax Notation One (ASN.1) library for the GNU system\n   for version 4.19.0"
    assert choose_title("Libtasn1", first_page=first_page) == (
        "Libtasn1: Abstract Syntax Notation One (ASN.1) library for the GNU system")
    # A label or a shouted word above the title names nothing: the title stands alone.
    assert choose_title("Hb", first_page="Contents\nEmployee Handbook 2025\n") == "Employee Handbook 2025"
    assert choose_title("Hb", first_page="ACME\nEmployee Handbook 2025\n") == "Employee Handbook 2025"


def test_good_metadata_title_is_kept():
    assert choose_title("Hb 2025", metadata="Employee Handbook 2025", first_page="Welcome to Acme\nPage 1") == (
        "Employee Handbook 2025"
    )


def test_office_print_to_pdf_title_loses_its_prefix_and_extension():
    assert choose_title("Hb", metadata="Microsoft Word - Handbook 2025.docx") == "Handbook 2025"


def test_outline_is_used_when_metadata_is_a_placeholder():
    outline = [OutlineEntry("Forklift Safety Manual", 1, 1), OutlineEntry("1 Scope", 2, 2)]
    assert choose_title("Fsm", metadata="untitled", outline=outline, first_page="Acme Logistics\n") == (
        "Forklift Safety Manual"
    )


def test_numbered_outline_entry_is_a_section_not_a_title():
    outline = [OutlineEntry("1 Leave", 1, 2), OutlineEntry("2 Hours", 1, 3)]
    assert choose_title("Good", metadata="untitled", outline=outline, first_page="Acme Handbook\n") == "Acme Handbook"


def test_file_name_title_when_nothing_is_usable():
    # Metadata is an id, the outline opens with a generic heading, and page one holds only a page number.
    outline = [OutlineEntry("Introduction", 1, 1)]
    assert choose_title("Q3 Figures", metadata=ACCESSION, outline=outline, first_page="12\n") == "Q3 Figures"


def test_explicit_title_beats_a_good_metadata_title():
    assert choose_title("Hb", explicit="Staff Handbook", metadata="Employee Handbook 2025") == "Staff Handbook"


def with_title(pdf: bytes, title: str) -> bytes:
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    writer.add_metadata({"/Title": title})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_ingested_filing_with_accession_number_metadata_gets_its_cover_title(database_url, conn, tmp_path: Path):
    body = "PART I\n\nItem 1. Business\n\nWe are a globally integrated payments company."
    pdf = with_title(text_pdf([SEC_COVER, body]), ACCESSION)
    assert PdfReader(io.BytesIO(pdf)).metadata.title == ACCESSION
    path = tmp_path / "amex-10k-2022.pdf"
    path.write_bytes(pdf)
    batch = run_batch(database_url, [Target(path, "acme", "hq", path.name)], ocr=OcrResource(enabled=False))
    assert [o.state for o in batch.outcomes] == ["new"]
    row = conn.execute("SELECT title, status FROM documents WHERE source_path = %s", (path.name,)).fetchone()
    assert (row["title"], row["status"]) == ("AMERICAN EXPRESS COMPANY Form 10-K", "live")


def test_a_title_the_running_header_repeats_is_still_the_title_of_page_one(database_url, conn, tmp_path: Path):
    # Specifications print their name atop every page: furniture on the others, the only title page one shows.
    head = "Widget Exchange Specification"
    pages = [f"{head}\nJane Smith\njsmith at example.org\n1. Introduction\nThis document defines the exchange format.",
             f"{head}\n2. Layout\nWidgets are stored one per line.", f"{head}\n3. Security\nNever trust a widget."]
    path = tmp_path / "widget-spec.pdf"
    path.write_bytes(text_pdf(pages))
    batch = run_batch(database_url, [Target(path, "acme", "hq", path.name)], ocr=OcrResource(enabled=False))
    assert [o.state for o in batch.outcomes] == ["new"]
    row = conn.execute("SELECT title FROM documents WHERE source_path = %s", (path.name,)).fetchone()
    assert row["title"] == head  # not "Jane Smith", the first line left once the header is stripped
    texts = [r["text"] for r in conn.execute(
        "SELECT text FROM pages p JOIN documents d ON d.id = p.document_id WHERE d.source_path = %s ORDER BY p.page_index",
        (path.name,))]
    assert texts and not any(head in t for t in texts)  # still stripped from the text that is searched and quoted


# Page one as (height of the type, top, line), as `cover.typeset_lines` reads it.
BODY = [(10.0, 300.0 + 12 * i, "Body text of the paper runs on in the size most characters are set in.") for i in range(8)]


def test_a_title_set_over_two_lines_in_large_type_is_read_whole():
    lines = [(21.4, 60.0, "Retrieval-Augmented Generation for Large"), (21.4, 88.0, "Language Models: A Survey"),
             (26.5, 519.0, "L"), *BODY]
    assert typeset_title(lines) == "Retrieval-Augmented Generation for Large Language Models: A Survey"


def test_a_line_ending_on_a_connecting_word_runs_on_into_larger_type():
    # PDFium reads the largest words first; their place on the page puts them after "ON".
    lines = [(60.6, 623.6, "HUMAN HEALTH"), (25.3, 602.6, "THE IMPACTS OF CLIMATE CHANGE ON"),
             (26.0, 681.9, "IN THE UNITED STATES"), (15.2, 744.5, "U.S. Global Change Research Program")]
    assert typeset_title(lines) == "THE IMPACTS OF CLIMATE CHANGE ON HUMAN HEALTH"


def test_type_within_a_tenth_of_the_largest_ties_and_the_first_from_the_top_wins():
    lines = [(15.1, 100.0, "IMPROVING THE QUALITY AND"), (15.1, 118.0, "EFFICIENCY OF COMMODITY"),
             (15.1, 136.0, "DISTRIBUTION TO FEDERAL"), (15.1, 154.0, "CHILD NUTRITION PROGRAMS"),
             (15.6, 200.0, "COMMITTEE ON EDUCATION"), (15.6, 218.0, "AND THE WORKFORCE"), *BODY]
    assert typeset_title(lines) == ("IMPROVING THE QUALITY AND EFFICIENCY OF COMMODITY DISTRIBUTION TO FEDERAL "
                                    "CHILD NUTRITION PROGRAMS")


def test_a_page_set_in_one_size_has_no_typeset_title():
    assert typeset_title([(7.2, 100.0 + i, line) for i, line in enumerate(
        ["FOR RELEASE MAY 3, 2018", "Carroll Doherty, Director of Political Research"])]) is None


def test_a_numbered_heading_or_a_scores_dynamics_in_large_type_is_no_title():
    assert typeset_title([(12.7, 400.0, "1 License"), *BODY]) is None
    assert typeset_title([(14.0, 100.0, "mf f"), *BODY]) is None


def test_the_running_head_above_a_paper_gives_way_to_its_title_in_larger_type():
    head = "Proceedings of the 61st Annual Meeting of the Association for Computational Linguistics"
    title = "Fact-Checking Complex Claims with Program-Guided Reasoning"
    pdf = typeset_pdf([(9, head), (18, title), (12, "Liangming Pan and William Yang Wang"),
                       *[(10, "Fact-checking real-world claims often requires collecting evidence.")] * 12])
    doc = read_pdf("paper.pdf", pdf)
    assert choose_title("Paper", first_page=doc.pages[0].text) == head  # page one's first line that reads as a title
    assert choose_title("Paper", first_page=doc.pages[0].text, typeset=doc.typeset) == title


def test_a_cover_naming_its_registrant_under_the_file_number_is_titled_by_it_and_its_form():
    # 3M's 10-K for 2018 prints no "(Exact name of registrant ...)" caption; its metadata title is "10-K - 02/07/2019 -
    # 3M Company", which reads as an id.
    cover = ("UNITED STATES\nSECURITIES AND EXCHANGE COMMISSION\nWashington, D.C. 20549\nFORM 10-K\n"
             "ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE\nSECURITIES EXCHANGE ACT OF 1934\n"
             "For the fiscal year ended December 31, 2018\nCommission file number 1-3285\n3M COMPANY\n"
             "State of Incorporation: Delaware\nPrincipal executive offices: 3M Center, St. Paul, Minnesota 55144")
    assert choose_title("3M 2018 10K", metadata="10-K - 02/07/2019 - 3M Company", first_page=cover) == (
        "3M COMPANY Form 10-K")
