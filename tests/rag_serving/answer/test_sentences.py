from rag_serving.answer.sentences import (announces, introduced, join_pages, periods_line, signature, signatures,
                                          split_sentences, squish)


def test_squish_collapses_layout_whitespace():
    assert squish("  16 weeks\n of   parental\tleave ") == "16 weeks of parental leave"


def test_line_wraps_join_and_blank_lines_separate_paragraphs():
    text = "Full-time staff get 16 weeks\nof leave. It is paid.\n\n3.3 Retirement Savings Plan\n\nAcme offers a 401(k)."
    assert split_sentences(text) == (
        (0, "Full-time staff get 16 weeks of leave."),
        (0, "It is paid."),
        (1, "3.3 Retirement Savings Plan"),
        (2, "Acme offers a 401(k)."),
    )


def test_abbreviations_do_not_end_sentences():
    assert split_sentences("Call ext. 2200, e.g. on Mondays. Then wait.") == (
        (0, "Call ext. 2200, e.g. on Mondays."), (0, "Then wait.")
    )


def test_a_table_row_is_one_quote_even_with_full_stops_in_its_cells():
    row = "E-104 | Meaning: Coolant pressure low | What to do: Check for leaks. Call a certified technician."
    assert split_sentences(f"Codes follow.\n\n{row}\n\nNext.") == ((0, "Codes follow."), (1, row), (2, "Next."))


def test_a_heading_on_the_line_above_its_paragraph_is_not_part_of_the_first_sentence():
    text = "Night shift reminders\nNight shift staff arriving after 23:00 must use\nthe Gate B keypad."
    assert split_sentences(text) == ((0, "Night shift reminders"),
                                     (1, "Night shift staff arriving after 23:00 must use the Gate B keypad."))


def test_a_short_line_wrapping_into_a_lower_case_line_is_one_sentence():
    assert split_sentences("Acme offers\nthe plan to all staff.") == ((0, "Acme offers the plan to all staff."),)


def test_a_sentence_running_over_a_page_break_stays_one_sentence_and_a_row_ends_its_paragraph():
    text = join_pages(["Staff may work remotely for up to", "two days per week.", "Contact: Yard Office | Extension: 3308",
                       "Employees enter with their badge."])
    assert split_sentences(text) == ((0, "Staff may work remotely for up to two days per week."),
                                     (1, "Contact: Yard Office | Extension: 3308"),
                                     (2, "Employees enter with their badge."))


def test_each_item_of_a_list_is_a_sentence_of_its_own_and_a_wrapped_item_stays_whole():
    text = ("Mandatory arguments to long options are mandatory for short options too.\n"
            "  -c,  --check        checks the syntax only\n  -o,  --output=FILE  output file\n\n"
            "Some rules are implicit:\n• All text/* types are subclasses of\ntext/plain\n• Streams are octets")
    assert split_sentences(text) == (
        (0, "Mandatory arguments to long options are mandatory for short options too."),
        (0, "-c, --check checks the syntax only"), (0, "-o, --output=FILE output file"),
        (1, "Some rules are implicit:"), (1, "• All text/* types are subclasses of text/plain"),
        (1, "• Streams are octets"))


def test_each_item_of_a_markdown_list_is_a_sentence_of_its_own():
    text = "Benefits include:\n- dental cover\n- a gym membership, up to\n  $300 a year\n+ eye tests\n\n* Free parking"
    assert split_sentences(text) == (
        (0, "Benefits include:"), (0, "- dental cover"), (0, "- a gym membership, up to $300 a year"),
        (0, "+ eye tests"), (1, "* Free parking"))
    # A minus sign joined to its number is no bullet: the line wraps the sentence.
    assert split_sentences("Store the unit between\n-5 and 40 °C.") == ((0, "Store the unit between -5 and 40 °C."),)


def test_a_numbered_subsection_heading_is_its_own_paragraph_even_before_a_lower_case_line():
    assert split_sentences("3.1  Invoking asn1Parser\nasn1Parser reads one file.") == (
        (0, "3.1 Invoking asn1Parser"), (1, "asn1Parser reads one file."))
    assert split_sentences("2.10. Storing the MIME type using Extended Attributes\n\nAn implementation MAY.") == (
        (0, "2.10. Storing the MIME type using Extended Attributes"), (1, "An implementation MAY."))
    # A single number opens a sentence as often as a heading: "10 days" stays the sentence's first words.
    assert split_sentences("10 days of leave are\ngranted per year.") == ((0, "10 days of leave are granted per year."),)


def test_a_numbered_title_between_paragraphs_with_no_blank_line_is_a_heading_of_its_own():
    # As a DocBook PDF's text comes out: titles opening with a path, and a chapter's title, on lines of their own.
    text = ("Chapter 5. The /var Hierarchy\n5.13. /var/run : Run-time variable data\n5.13.1. Purpose\n"
            "This directory was once intended for system information\ndata. 8\n"
            "5.14. /var/spool : Application spool data\n/var/spool contains data which is awaiting processing.\n"
            "• setserial\n6.1.3. /dev : Devices and special files")
    assert split_sentences(text) == (
        (0, "Chapter 5. The /var Hierarchy"), (1, "5.13. /var/run : Run-time variable data"), (2, "5.13.1. Purpose"),
        (3, "This directory was once intended for system information data."), (3, "8"),
        (4, "5.14. /var/spool : Application spool data"), (5, "/var/spool contains data which is awaiting processing."),
        (5, "• setserial"), (6, "6.1.3. /dev : Devices and special files"))
    # A wrapped line that happens to open with a section's number is still part of its sentence.
    assert split_sentences("The rules are in section\n2.4 Remote Work and apply to all staff.") == (
        (0, "The rules are in section 2.4 Remote Work and apply to all staff."),)
    assert split_sentences("Employees receive\n2.5 % of their salary") == (
        (0, "Employees receive 2.5 % of their salary"),)


def test_the_following_year_announces_nothing():
    assert not announces("You may carry over up to five unused days into the following year.")
    assert not announces("The allowance is paid with the following month's salary.")
    assert not announces("You receive a substitute day off within the following 60 days.")
    assert announces("The following devices must exist under /dev.")


def test_a_sentence_stopping_at_like_is_finished_by_the_line_after_it():
    # The Developer's Reference sets its example apart as code after "you should use something like".
    body = ("If you need to check for the existence of a command, you should use something like\n\n"
            "    if command -v install-docs > /dev/null; then ...\n\nThe next paragraph says more. And more.")
    split = split_sentences(body)
    assert [split[i][1] for i in introduced(split, 0)] == ["if command -v install-docs > /dev/null; then ..."]
    assert introduced(split, 2) == []  # a finished sentence brings nothing


def test_a_line_of_periods_heading_a_table_is_known_for_what_it_is():
    assert periods_line("December 31, 2018 versus (Millions) 2018 2017 2017")
    assert periods_line("Years ended December 31 2021 2020 2019")
    assert not periods_line("Net debt (non-GAAP measure) | 2018: $11,352 | 2017: $9,793")
    assert not periods_line("Net debt rose in 2018.")


def test_a_table_announced_brings_its_rows_not_the_periods_line_over_them():
    # 3M's 2018 10-K as ingest stores it: the periods line stays as printed above rows that each carry their periods.
    body = ("The following table provides net debt as of December 31, 2018 and 2017.\n\n"
            "December 31, 2018 versus\n(Millions) 2018 2017 2017\n\n"
            "Total debt | 2018: $14,622 | 2017: $13,949 | 2018 versus 2017: $673\n\n"
            "Net debt (non-GAAP measure) | 2018: $11,352 | 2017: $9,793 | 2018 versus 2017: $1,559")
    split = split_sentences(body)
    assert [split[i][1] for i in introduced(split, 0)] == [
        "Total debt | 2018: $14,622 | 2017: $13,949 | 2018 versus 2017: $673",
        "Net debt (non-GAAP measure) | 2018: $11,352 | 2017: $9,793 | 2018 versus 2017: $1,559"]


def test_a_manual_entry_names_its_command_on_a_line_of_its_own_with_placeholders():
    assert signature("\\gappto⟨hook⟩{⟨code⟩}")
    assert signature("hypcapspace=⟨amount⟩")
    assert signature("multi_r2rtime(input, numCycles)")
    assert not signature("\\usepackage{microtype}")  # example code: a value, not a placeholder
    assert not signature("\\rmntonum{⟨numeral⟩} \\setcounter{counter}{⟨n⟩}")  # two macros: code, not an entry
    assert not signature("\\gappto⟨hook⟩{⟨code⟩} appends code.")  # a sentence


def test_the_paragraph_under_an_entry_signature_is_described_by_it_and_no_other():
    split = split_sentences("\\appto⟨hook⟩{⟨code⟩}\n\nThis command appends code. It is robust.\n\n"
                            "\\gappto⟨hook⟩{⟨code⟩}\n\nSimilar to \\appto except that the assignment is global.\n\n"
                            "Hooks are plain macros.")
    assert signatures(split) == {1: 0, 2: 0, 4: 3}
