"""Running headers and footers: found by repetition at page edges, removed from the edges only, page numbers read."""

from rag_assets.ingest import extraction as ex
from rag_assets.ingest.furniture import key, printed_labels, strip_furniture, strip_running_marks
from tests.pdfs import text_pdf

HEADER = "X200 Refrigeration Unit        Manual X200-OM-EN rev. C"


def page(n: int, body: str) -> str:
    return f"{HEADER}\n\n{body}\n\n        Page {n}"


def test_numbers_arabic_and_roman_and_spacing_do_not_distinguish_lines():
    assert key("Page 7") == key("Page  12") == key("page iii") == "page #"
    assert key(HEADER) == "x# refrigeration unit manual x#-om-en rev. #"


def test_a_header_and_footer_on_every_page_are_removed_and_the_body_kept():
    bodies = ["Defrost runs at 02:00.", "Clean the coil monthly.", "Alarms sound at E-112.", "Order parts early."]
    texts, numbers = strip_furniture([page(n, body) for n, body in enumerate(bodies, start=1)])
    assert texts == bodies
    assert numbers == ["1", "2", "3", "4"]


def test_a_repeated_line_in_the_middle_of_a_page_is_content_not_furniture():
    middle = "Call the Yard Office on extension 3308."
    pages = [f"Heading {n}\nintro {n}\nmore {n}\n{middle}\nend {n}\nlast {n}\nfinal {n}" for n in range(1, 5)]
    texts, _ = strip_furniture(pages)
    assert all(middle in t for t in texts)


def test_a_line_on_too_few_pages_stays():
    pages = ["Draft\nOne.", "Draft\nTwo.", "Three.", "Four.", "Five.", "Six.", "Seven.", "Eight.", "Nine.", "Ten."]
    texts, _ = strip_furniture(pages)
    assert texts[0] == "Draft\nOne."  # 2 of 10 pages: below both the 3-page floor and the 30% share


def test_a_numbered_line_repeating_its_number_is_content_not_a_page_counter():
    pages = [f"Table {n} continued\n{body}" for n, body in zip([1, 1, 2, 2], ["A.", "B.", "C.", "D."], strict=True)]
    texts, _ = strip_furniture(pages)
    assert texts == pages


# A LaTeX book's facing pages: the even one heads with the chapter's mark, the odd one with the section's.
BOOK = ["Chapter 1\n\nBeginner's guide\n\n1.1 Linear systems\nqsolve solves linear systems.",
        "1.1.   Linear systems       6\nThe input file is a matrix.",
        "Chapter 1.   Beginner's guide\n1.2 Brief tutorial\nIn this example you learn zsolve.",
        "1.2.   Brief tutorial       8\nzsolve writes two files.",
        "Chapter 1.   Beginner's guide\nThe output is a lattice.",
        "Chapter 2\n\nReference\n\n2.1 markov\nmarkov computes a Markov basis.",
        "CHAPTER 2.  REFERENCE    2.1.  MARKOV\nIts options are listed below.",
        "CHAPTER 2.  REFERENCE    2.1.  MARKOV\nIt reads project.mat."]


def test_a_books_running_chapter_and_section_heads_are_removed_and_its_headings_kept():
    texts = strip_running_marks(BOOK)
    assert texts[1:5] == ["The input file is a matrix.", "1.2 Brief tutorial\nIn this example you learn zsolve.",
                          "zsolve writes two files.", "The output is a lattice."]
    assert texts[6:] == ["Its options are listed below.", "It reads project.mat."]
    assert texts[0] == BOOK[0] and texts[5] == BOOK[5]  # the chapters' own openings


def test_chapter_headings_each_printed_once_are_content_not_a_running_head():
    pages = [f"Chapter {n}. Part {n}\nBody of chapter {n}." for n in range(1, 7)]
    assert strip_running_marks(pages) == pages


def test_numbered_headings_opening_pages_stay_when_no_chapter_mark_runs():
    pages = [f"2.{n}. Storing the type\nThe type is stored." for n in range(1, 9)]
    assert strip_running_marks(pages) == pages


def test_footer_numbers_become_labels_at_their_offset_from_the_physical_page():
    # A cover and a contents page, then printed pages 1..4 on physical pages 3..6.
    numbers = [None, None, "1", "2", "3", "4"]
    assert printed_labels(["1", "2", "3", "4", "5", "6"], numbers) == ["1", "2", "1", "2", "3", "4"]
    assert printed_labels(["1", "2", "3", "4", "5", "6"], [None, "ii", "1", "2", "3", "4"])[1] == "ii"


def test_footer_numbers_that_disagree_leave_the_physical_labels():
    assert printed_labels(["1", "2", "3", "4"], ["7", "3", "9", "1"]) == ["1", "2", "3", "4"]


def test_a_pdf_without_page_labels_is_cited_by_the_numbers_its_footers_print():
    prose = ["Revenue rose.", "Costs fell.", "Margins held.", "Cash grew."]
    bodies = ["Annual Report 2023", "Contents"] + [f"Running head\n{t}\nPage {n}" for n, t in enumerate(prose, start=1)]
    doc = ex.extract("report.pdf", text_pdf(bodies))
    assert [p.label for p in doc.pages] == ["1", "2", "1", "2", "3", "4"]
    assert [p.text for p in doc.pages[2:]] == prose


def test_declared_page_labels_win_over_footers():
    prose = ["Preface.", "Revenue rose.", "Costs fell.", "Margins held."]
    bodies = [f"Running head\n{t}\nPage {n + 5}" for n, t in enumerate(prose, start=1)]
    doc = ex.extract("book.pdf", text_pdf(bodies, roman_front=1))
    assert [p.label for p in doc.pages] == ["i", "1", "2", "3"]
    assert [p.text for p in doc.pages] == prose
