"""Tables in layout text: one labelled row per paragraph, wrapped cells joined, and no table where there is none."""

import re

from rag_assets.ingest import extraction as ex
from rag_assets.ingest.tables import render_tables

# pypdf layout text of a spaced table (a blank line between rows), two cells wrapped onto a second line.
PARTS = """\
Regular text before the table.

 Part number            Description                                     Replacement interval

 X200-FAN-12            Condenser fan assembly, 350 mm, EC              3 years (about 20,000
                        motor                                           operating hours)

 X200-SNS-11            Suction pressure transducer, 0 to 10            5 years
                        bar

 X200-HTR-05            Defrost heater element, 1.2 kW                  4 years

4.3 Replacing the Condenser Fan"""


def test_spaced_table_rows_carry_their_headers_and_wrapped_cells():  # hand-read from the layout text above
    out = render_tables(PARTS)
    assert out.split("\n\n") == [
        "Regular text before the table.",
        "Part number: X200-FAN-12 | Description: Condenser fan assembly, 350 mm, EC motor"
        " | Replacement interval: 3 years (about 20,000 operating hours)",
        "Part number: X200-SNS-11 | Description: Suction pressure transducer, 0 to 10 bar | Replacement interval: 5 years",
        "Part number: X200-HTR-05 | Description: Defrost heater element, 1.2 kW | Replacement interval: 4 years",
        "4.3 Replacing the Condenser Fan",
    ]


def test_a_wrapped_header_and_a_wrapped_first_cell_stay_in_their_columns():
    text = """\
 Entrance                   Monday to           Saturday and          Notes
                            Friday              Sunday

 Gate A (trucks)            24 hours            24 hours              Carrier check-in at the
                                                                      Gate A kiosk

 Gate B (staff and          05:00 to 23:00      06:00 to 18:00        Badge reader; keypad
 visitors)                                                            code after hours

                                              Page 1"""
    rows = render_tables(text).split("\n\n")
    assert rows[1] == ("Entrance: Gate B (staff and visitors) | Monday to Friday: 05:00 to 23:00"
                       " | Saturday and Sunday: 06:00 to 18:00 | Notes: Badge reader; keypad code after hours")
    assert rows[-1].strip() == "Page 1"  # the footer under the table is not a cell


def test_dense_table_rows_on_consecutive_lines():
    text = """\
Code    Meaning                  Action
E-101   Supply air sensor fault  Check connector J4
E-102   Return air sensor fault  Check connector J5"""
    assert render_tables(text).split("\n\n") == [
        "Code: E-101 | Meaning: Supply air sensor fault | Action: Check connector J4",
        "Code: E-102 | Meaning: Return air sensor fault | Action: Check connector J5",
    ]


def test_right_aligned_figures_line_up_by_their_right_edge():
    text = """\
Item             2023       2022
Revenue        $ 1,234    $ 987
Net income        95.5     112.0
Employees           41        38"""
    assert render_tables(text).split("\n\n")[0] == "Item: Revenue | 2023: $ 1,234 | 2022: $ 987"


def test_a_first_row_of_figures_in_a_column_of_figures_is_not_a_header():
    text = "A      5.0     5.0\nA-     5.0     4.5\nB+     5.0     4.0\nB      5.0     3.5"
    assert render_tables(text).split("\n\n") == ["A | 5.0 | 5.0", "A- | 5.0 | 4.5", "B+ | 5.0 | 4.0", "B | 5.0 | 3.5"]


def test_a_table_carried_over_from_the_last_page_has_no_header_to_repeat():
    text = "2005     Consular     Timeliness\n2006     Consular     Quality\n2007     Consular     Timeliness"
    assert render_tables(text).split("\n\n")[0] == "2005 | Consular | Timeliness"


def test_a_bullet_list_is_not_a_table():
    text = " -   Isolate the unit and lock it off.\n\n -   Remove the top grille.\n\n -   Support the fan assembly."
    assert render_tables(text) == text


def test_contents_with_leaders_are_not_a_table():
    text = "2.2   Install MMDetection ... 3\n2.3   Install without GPU ... 5\n2.4   Docker image ... 5\n2.5   Setup script ... 5"
    assert render_tables(text) == text


def test_two_columns_of_prose_are_not_a_table():
    text = """\
phasizing the importance of incorporating the      tion (Bohnet et al., 2023), which not only enables
"Conscious Incompetence" setting, and the crit-     users to verify the generated text flexibly but also
ical role of retrieval accuracy.                    contributes to many important applications, such"""
    assert render_tables(text) == text


def test_a_page_header_above_a_table_is_not_its_first_row():
    text = "Acme Logistics                         Handbook 2024\n\n" + PARTS.split("\n\n", 1)[1]
    out = render_tables(text)
    assert out.startswith("Acme Logistics                         Handbook 2024\n\n")
    assert "Part number: X200-HTR-05 | Description: Defrost heater element, 1.2 kW | Replacement interval: 4 years" in out


def test_every_word_of_a_table_survives():
    words = lambda s: sorted(re.findall(r"\S+", s))  # noqa: E731
    out = render_tables(PARTS)
    labels = ("Part", "number:", "Description:", "Replacement", "interval:", "|")
    headers = ("Part", "number", "Description", "Replacement", "interval")
    assert [w for w in words(out) if w not in labels] == [w for w in words(PARTS) if w not in headers]


def test_a_real_pdf_table_comes_out_as_labelled_rows(sample_corpus):
    pdf = sample_corpus / "acme" / "hq" / "product-manual-x200.pdf"
    page = ex.extract(pdf.name, pdf.read_bytes()).pages[7]
    assert ("Part number: X200-SNS-11 | Description: Suction pressure transducer, 0 to 10 bar | Replacement interval: 5 years"
            in page.text.split("\n\n"))


# pypdf layout text of a 10-K's income statement (NIKE, Inc., fiscal 2021), shortened: the periods are centred over
# right-aligned figures, the currency sign set in its own column, and two labels head the rows indented under them.
STATEMENT = """\
                                                  YEAR ENDED MAY 31,
(In millions, except per share data)           2021         2020        2019
Revenues                               $     44,538  $    37,403  $   39,117
Cost of sales                                24,576       21,162      21,643
NET INCOME                             $      5,727  $     2,539  $    4,029
Earnings per common share:
  Basic                                $       3.64  $      1.63 $      2.55
  Diluted                              $       3.56  $      1.60 $      2.49
Weighted average common shares outstanding:
  Basic                                     1,573.0      1,558.8     1,579.7"""


def test_a_statements_periods_head_its_figures_and_each_sign_goes_with_its_figure():
    rows = render_tables(STATEMENT).split("\n\n")
    assert rows[1:4] == ["Revenues | 2021: $44,538 | 2020: $37,403 | 2019: $39,117",
                         "Cost of sales | 2021: 24,576 | 2020: 21,162 | 2019: 21,643",
                         "NET INCOME | 2021: $5,727 | 2020: $2,539 | 2019: $4,029"]


def test_a_label_alone_heads_the_rows_indented_under_it_until_the_next():
    rows = render_tables(STATEMENT).split("\n\n")
    assert rows[4:] == ["Earnings per common share: Basic | 2021: $3.64 | 2020: $1.63 | 2019: $2.55",
                        "Earnings per common share: Diluted | 2021: $3.56 | 2020: $1.60 | 2019: $2.49",
                        "Weighted average common shares outstanding: Basic | 2021: 1,573.0 | 2020: 1,558.8"
                        " | 2019: 1,579.7"]


def test_a_label_alone_under_a_row_of_figures_goes_with_the_row_below_not_the_one_above():
    text = """\
Net sales              2021        2020
Retail                  512         498
Wholesale               130         141
Online:
Marketplace              88          61"""
    rows = render_tables(text).split("\n\n")
    assert rows[-2:] == ["Net sales: Wholesale | 2021: 130 | 2020: 141",
                         "Net sales: Online: Marketplace | 2021: 88 | 2020: 61"]


# 3M's 2018 cash-flow statement as pypdf lays it out, shortened: a heading wrapped over two lines heads the rows
# indented three places under it, a second heading the rows indented under it, and a later section has no periods of
# its own.
CASH_FLOWS = """\
(Millions)                                             2018          2017
Cash Flows from Operating Activities
Net income including noncontrolling interest   $      5,363  $      4,869
Adjustments to reconcile net income to net cash
  provided by operating activities
   Depreciation and amortization                      1,488         1,544
   Changes in assets and liabilities
     Accounts receivable                               (305)         (245)
   Other — net                                           120           256
Net cash provided by operating activities              6,439         6,240

Cash Flows from Investing Activities
Purchases of property, plant and equipment (PP&E)    (1,577)       (1,373)
Proceeds from sale of PP&E and other assets              262            49"""


def test_a_label_wrapped_under_a_row_of_figures_heads_the_rows_indented_under_it():
    rows = render_tables(CASH_FLOWS).split("\n\n")
    heading = "Adjustments to reconcile net income to net cash provided by operating activities"
    assert rows[1:6] == [
        "Net income including noncontrolling interest | 2018: $5,363 | 2017: $4,869",
        f"{heading} Depreciation and amortization | 2018: 1,488 | 2017: 1,544",
        f"{heading} Changes in assets and liabilities Accounts receivable | 2018: (305) | 2017: (245)",
        f"{heading} Other — net | 2018: 120 | 2017: 256",
        "Net cash provided by operating activities | 2018: 6,439 | 2017: 6,240"]


def test_a_later_section_of_a_statement_takes_the_periods_its_figures_line_up_under():
    rows = render_tables(CASH_FLOWS).split("\n\n")
    assert rows[-2:] == ["Purchases of property, plant and equipment (PP&E) | 2018: (1,577) | 2017: (1,373)",
                         "Proceeds from sale of PP&E and other assets | 2018: 262 | 2017: 49"]


def test_figures_that_do_not_line_up_under_the_periods_above_take_none():
    moved = "Purchases of property, plant and equipment (PP&E)    (1,577)  (1,373)"
    text = CASH_FLOWS.replace("Purchases of property, plant and equipment (PP&E)    (1,577)       (1,373)", moved)
    assert moved in render_tables(text).split("\n")


def test_a_sign_closing_a_label_goes_with_the_figure_after_it():
    text = """\
                                             2015         2014
Cash and cash equivalents ... $           876,560  $  1,117,400
Short-term investments                  3,111,524    2,622,091
Trade receivables                         672,006      591,800"""
    assert render_tables(text).split("\n\n")[1] == "Cash and cash equivalents ... | 2015: $876,560 | 2014: $1,117,400"


def test_a_percentage_set_apart_from_its_sign_is_a_figure():
    text = """\
                                    2021        2020
Weighted-average discount rate
     Operating leases             2.16 %      2.23 %
     Finance leases               4.91 %      6.34 %"""
    assert render_tables(text).split("\n\n")[1:] == [
        "Operating leases | 2021: 2.16 % | 2020: 2.23 %", "Finance leases | 2021: 4.91 % | 2020: 6.34 %"]


def test_periods_that_do_not_match_the_columns_head_nothing():
    text = """\
                           2021        2020
Revenue        $ 1,234    $ 987    $ 1,001
Net income        95.5    112.0      101.0
Employees           41       38         35"""
    assert render_tables(text).split("\n\n")[1] == "Revenue | $ 1,234 | $ 987 | $ 1,001"


def test_a_shell_prompt_is_no_currency_sign():
    text = "$      echo   ${string:7}\n$      echo   ${string:7:2}\n$      echo   ${string:7:-2}"
    assert "$echo" not in render_tables(text)


def test_one_row_of_figures_under_its_periods_is_labelled():
    text = """\
                                                       Years ended December 31
(Millions)                                           2018        2017        2016
Purchases of property, plant and equipment (PP&E)  $ (1,577)   $ (1,373)   $ (1,420)

Capital spending rose in 2018."""
    assert render_tables(text).split("\n\n")[1] == (
        "Purchases of property, plant and equipment (PP&E) | 2018: $ (1,577) | 2017: $ (1,373) | 2016: $ (1,420)")


def test_two_aligned_lines_of_figures_with_no_periods_above_stay_lines():
    text = "Gate A        24        24\nGate B        18        12\n\nThe gates open at dawn."
    assert render_tables(text) == text


def test_a_percent_sign_in_its_own_column_goes_with_the_figure_before_it():
    # NIKE's fiscal 2021 10-K, Converse revenues by product, as pypdf lays them out (shortened): each change's "%" is
    # set apart, and one runs into the next column's "$".
    text = """\
Revenues by:
  Footwear     $   1,986  $   1,642     21    %     17    %$    1,658     -1   %
  Apparel            104         89     17    %     13    %       118    -25   %
  Equipment           29         25     16    %     14    %        24      4   %"""
    assert render_tables(text).split("\n\n")[1:] == ["Footwear | $1,986 | $1,642 | 21% | 17% | $1,658 | -1%",
                                                     "Apparel | 104 | 89 | 17% | 13% | 118 | -25%",
                                                     "Equipment | 29 | 25 | 16% | 14% | 24 | 4%"]


def test_a_period_set_over_two_lines_heads_its_column_whole():
    # 3M's 2018 10-K, operating expenses as a percent of net sales (shortened, as pypdf lays it out): the change columns
    # are headed "2018 versus / 2017" and "2017 versus / 2016"; "Years ended December 31", over several, heads none.
    text = """\
                                               Years ended December 31
                                                                         2018 versus     2017 versus
(Percent of net sales)      2018          2017          2016            2017            2016
Cost of sales                   50.9   %      50.8   %      50.2   %           0.1 %           0.6 %
Research expenses                  5.6           5.9           5.9             (0.3)               —
Gain on sale of businesses       (1.7)         (1.9)         (0.4)               0.2           (1.5)"""
    assert render_tables(text).split("\n\n")[1:] == [
        "Cost of sales | 2018: 50.9% | 2017: 50.8% | 2016: 50.2% | 2018 versus 2017: 0.1 % | 2017 versus 2016: 0.6 %",
        "Research expenses | 2018: 5.6 | 2017: 5.9 | 2016: 5.9 | 2018 versus 2017: (0.3) | 2017 versus 2016: —",
        "Gain on sale of businesses | 2018: (1.7) | 2017: (1.9) | 2016: (0.4) | 2018 versus 2017: 0.2"
        " | 2017 versus 2016: (1.5)"]


def test_figures_under_some_of_the_periods_take_the_ones_over_them():
    # 3M's 2018 10-K, Health Care (shortened): the sales change analysis gives 2018 and 2017 only, under the first two
    # of the three periods; counted from the right, they would read as 2017 and 2016.
    text = """\
                                         2018            2017            2016
  Organic local-currency                 2.6 %           3.9 %
  Translation                            0.3             0.5
  Total sales change                     2.9 %           4.4 %"""
    assert render_tables(text).split("\n\n")[1:] == ["Organic local-currency | 2018: 2.6 % | 2017: 3.9 %",
                                                      "Translation | 2018: 0.3 | 2017: 0.5",
                                                      "Total sales change | 2018: 2.9 % | 2017: 4.4 %"]
