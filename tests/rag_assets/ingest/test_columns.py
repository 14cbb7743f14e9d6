"""Two columns of prose read one after the other; tables, statements and single columns left as they are."""

from rag_assets.ingest.columns import split_columns

# pypdf layout text of a paper's page (2303.08559, page 2), shortened: two columns side by side on every line.
LEFT = ["ply beyond SLMs’ capabilities) well. Nevertheless,", "LLMs demonstrate strong predisposition to false-",
        "positive predictions on negative samples.  Since", "most negative samples are easy samples (which",
        "could be solved readily by SLMs), the performance", "of LLMs on easy samples sometimes collapses and",
        "are usually much worse than fine-tuned SLMs.", "   Leveraging  these  findings,  we  pursue  an  ap-",
        "proach to incorporate LLMs and SLMs within a"]
RIGHT = ["2.2    Few-shot IE with ICL", "Regarding few-shot IE tasks, recent studies inten-",
         "sively compare the performance between SLMs", "and  LLMs  but  yield  inconsistent  conclusions.",
         "Some studies favor LLMs as competent few-shot", "extractors  (Agrawal  et  al., 2022; Wang  et  al.,",
         "2023b; Li  et  al., 2023; Zhang  et  al., 2023a;", "Wadhwa  et  al., 2023),  while  others  dispute  this",
         "claim (Jimenez Gutierrez et al.,2022;Qin et al.,"]
PAGE = "\n".join(f"{a:<66}{b}" for a, b in zip(LEFT, RIGHT))


def test_two_columns_of_prose_are_read_left_then_right():
    assert split_columns(PAGE).split("\n") == [*LEFT, "", *RIGHT]


def test_a_line_across_the_gutter_stays_between_the_runs_of_columns():
    caption = "Figure 1: Overview of the filter-then-rerank framework, set across the full width of the page here."
    out = split_columns(f"{caption}\n{PAGE}").split("\n")
    assert out == [caption, *LEFT, "", *RIGHT]


def test_a_line_one_column_leaves_empty_breaks_no_sentence_in_the_other():
    page = PAGE.split("\n")
    page.insert(3, f"{'':66}{'sentence goes on in the right column only.'}")
    out = split_columns("\n".join(page)).split("\n")
    assert out[:len(LEFT)] == LEFT  # no blank line where the left column had nothing
    assert "sentence goes on in the right column only." in out[len(LEFT) + 1:]


def test_a_statement_and_a_two_column_table_are_no_columns():
    statement = "\n".join(f"{label:<60}{a:>10}{b:>12}" for label, a, b in [
        ("Revenues", "$ 44,538", "$ 37,403"), ("Cost of sales", "24,576", "21,162"), ("Gross profit", "19,962", "16,241"),
        ("Demand creation expense", "3,114", "3,592"), ("Operating overhead expense", "9,911", "9,534"),
        ("Interest expense (income), net", "262", "89"), ("Income before income taxes", "6,661", "2,887"),
        ("Income tax expense", "934", "348"), ("NET INCOME", "$ 5,727", "$ 2,539")])
    assert split_columns(statement) == statement
    # Labels of four words and more, but short against their column: a table, not prose.
    table = "\n".join(f" {label:<48}{value}" for label, value in [
        ("Ambient Sound Mode is ON", "Max. 18 hours of music playback"), ("Noise canceling function is ON",
         "Max. 30 hours of music playback"), ("Both of them are OFF", "Max. 35 hours of music playback")] * 3)
    assert split_columns(table) == table


def test_one_column_of_prose_is_left_as_it_is():
    text = "\n".join(LEFT + RIGHT)
    assert split_columns(text) == text


def test_a_table_whose_cells_sit_wide_apart_on_each_side_is_no_columns():
    # An officers table: name, age and position on the left of the gap, earlier positions on the right; every side
    # is long enough and wordy enough to pass for prose but for the wide gaps between its cells.
    rows = [("Inge G. Thulin Senior", "65", "Executive Chairman of the Board", "Chairman of the Board, President and CEO"),
            ("Michael F. Roman Junior", "59", "Chief Executive Officer here", "Chief Operating Officer and Executive VP"),
            ("Nicholas C. Gangestad", "54", "Senior Vice President, Finance", "Vice President, Corporate Controller"),
            ("Ivan K. Fong Esquire", "57", "Senior Vice President, Legal", "General Counsel and Secretary of 3M"),
            ("Eric D. Hammes Junior", "44", "Senior Vice President, Systems", "Vice President, Corporate Audit team")] * 2
    table = "\n".join(f"{name:<25}{age:<5}{position:<34}{earlier}" for name, age, position, earlier in rows)
    assert split_columns(table) == table
