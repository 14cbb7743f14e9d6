from concurrent.futures import ThreadPoolExecutor

import pytest

from rag_serving.answer.evidence import profile
from rag_serving.answer.kinds import Asks, has_kind
from rag_serving.answer.measures import NAMES, measure, product, versioned, written_in


def test_a_question_names_the_measure_of_its_answer():
    assert measure("Which email address should suppliers send their invoices to?") == "email"
    assert measure("Is there an annual pot of money for upskilling?") == "money"
    assert measure("How much does the gym membership cost?") == "money"
    assert measure("How long does a refund take?") == "span"  # the time, not the money
    assert measure("What percentage of the premium does Acme pay?") == "percent"
    assert measure("What is the URL of the supplier portal?") == "web"


def test_a_question_naming_no_measure_asks_for_none():
    assert measure("How much vacation do I get?") is None  # days, counted by the number kind
    assert measure("Which part number is the fan?") is None


def test_how_many_of_a_unit_of_time_asks_for_a_span_as_how_long_does():
    asked = "for how many years does the security team publish updates for a stable release?"
    assert measure(asked) == "span" and measure("After how many minutes of inactivity must a screen lock?") == "span"
    assert not written_in("Debian testing-security-announce 2008-12", "span")
    assert written_in("for about three years after its release", "span")
    # "five unused days" is a count of days; "1 per day" a rate.
    assert written_in("You may carry over up to five unused days.", "span") and not written_in("1 per day", "span")
    assert not written_in("Each team meets at least twice a year for a planning week.", "span")
    assert written_in("sixteen weeks of parental leave", "span") and written_in("for seventy years", "span")
    assert written_in("The delay is 500 ms by default.", "span") and written_in("after 250 milliseconds", "span")
    assert measure("how many trailer spots does north yard have") is None


def test_a_trade_off_or_a_reason_asks_for_no_money():
    assert measure("Which formats squeeze files smaller at the cost of slower compression?") is None
    assert measure("What is the cost of the gym membership?") == "money"
    # A "why" question asks for a reason whatever words it holds: the cost here is no price.
    assert profile("Why does copying an array cost the same however big it is?").measure is None


def test_how_long_a_name_must_be_is_answered_in_characters():
    assert measure("How long must a color specification in the HTML model be?") == "span"
    assert written_in("It must consist of exactly 6 characters.", "span")
    assert not written_in("It must consist of hexadecimal characters.", "span")
    assert written_in("A command line is limited to 4096 bytes.", "span")


def test_a_percent_sign_opening_a_tex_comment_is_no_share():
    assert written_in("Expanding the fonts by more than 2%, i.e. a limit of 20", "percent")
    assert written_in("a rate of 2.16 % a year", "percent") and written_in("Gross margin (%) | 2018: 45.2", "percent")
    assert written_in("raised by 50\\% in the source", "percent")
    assert not written_in("\\renewcommand*{\\do}[1]{% \\ifstrequal{#1}{item}", "percent")


def test_money_is_a_currency_amount_not_any_number():
    assert written_in("up to $1,800 per year", "money") and written_in("EUR 250 a year", "money")
    assert written_in("250 euros", "money") and written_in("The course is free of charge.", "money")
    assert not written_in("27 days of paid annual leave", "money")


def test_a_span_is_a_count_of_time_units_or_a_range():
    assert written_in("after 45 minutes", "span") and written_in("16 weeks of parental leave", "span")
    assert written_in("within ten working days", "span") and written_in("a two-week period", "span")
    assert written_in("closed from 3 March to 14 March 2025", "span")
    assert written_in("absences of more than five consecutive working days", "span")  # two qualifiers
    assert not written_in("the whole company meets once a year", "span")  # how often, not how long
    assert not written_in("twice a week", "span") and written_in("up to 3 days per week", "span")
    assert not written_in("error E-112 at 3 K above the setpoint", "span")


def test_an_email_address_and_a_percentage_are_written_as_such():
    assert written_in("Send them to ap-invoices@acme-logistics.example.", "email")
    assert not written_in("Send them to the accounts payable team.", "email")
    assert written_in("Acme pays 80% of the premium", "percent") and written_in("four percent", "percent")
    assert not written_in("Acme pays most of the premium", "percent")


def test_the_question_profile_carries_its_measure_once_for_every_candidate():
    assert profile("How much does the replacement belt cost?").measure == "money"
    assert profile("How many trailer positions does North Yard have?").measure is None


def test_many_threads_read_the_shared_patterns_as_one_thread_does():
    questions = ["Which email address takes invoices?", "How long is the leave?", "What does it cost?",
                 "What percentage is matched?", "Who signs it?"] * 40
    texts = ["ap@acme.example", "16 weeks", "$45", "4 percent", "the Site Manager"] * 40
    expected = [(measure(q), [written_in(t, n) for n in NAMES]) for q, t in zip(questions, texts)]
    with ThreadPoolExecutor(8) as pool:
        for _ in range(5):
            got = list(pool.map(lambda qt: (measure(qt[0]), [written_in(qt[1], n) for n in NAMES]),
                                zip(questions, texts)))
            assert got == expected


def test_the_shared_tables_cannot_be_changed():
    with pytest.raises(TypeError):
        NAMES["money"] = "cash"  # type: ignore[index]


def test_a_technical_quantity_asked_for_by_name_is_answered_in_its_unit():
    # The expEYES manual's "Can be set, from software, to any value in the 0 to +5V range" says nothing of amperes.
    assert measure("How much current can the programmable voltage source supply at most?") == "current"
    assert not written_in("Can be set, from software, to any value in the 0 to +5V range.", "current")
    assert written_in("It can supply up to 5 mA.", "current")
    assert measure("whats the max voltage i can put on the A1 input") == "voltage"
    assert written_in("must be within ±5 volts range", "voltage") and written_in("around 1.25 millivolts", "voltage")
    assert measure("What is the input impedance of the IN1 input?") == "resistance"
    assert written_in("The input impedance is 1MΩ.", "resistance")
    assert not written_in("in the 0 to 5V range", "resistance")
    assert measure("how much RAM does update-mime-database need?") == "bytes"
    assert measure("What is the maximum size of a mime.cache file?") == "bytes"
    assert written_in("A minimum storage capacity of 8GB is recommended.", "bytes")
    assert not written_in("There are two important requirements.", "bytes")
    assert measure("How many gigabytes of disk space do I need to mirror the archive?") == "bytes"
    assert not written_in("6.7 The software is available in several directory trees.", "bytes")


def test_a_technical_word_that_is_not_the_value_asked_for_names_no_unit():
    assert measure("What is the current policy on remote work?") is None  # "current" as "present"
    assert measure("What resolution does the voltage measurement have?") is None  # bits, not volts
    assert measure("Why is the measured resistance of tap water so different with DC?") is None  # a reason
    assert measure("Can I use the storage snapshots feature with ext4?") is None
    # Space between letters is a length; space a program takes is storage.
    assert measure("With a 10 pt font, how much space does LetterSpace=1.0 put between letters?") is None
    assert measure("How much space does a full mirror take?") == "bytes"


def test_a_version_asked_for_is_a_release_number_not_a_name_ending_in_digits():
    assert measure("Which minimum version of OpenCV does AMC require?") == "version"
    assert written_in("OpenCV 2.4 or later", "version") and written_in("version 3 of the format", "version")
    assert not written_in("Perl, together with Gtk2-Perl and Glade::XML", "version")


def test_a_version_asked_for_may_name_its_product_or_release_before_the_word_version():
    assert measure("What is the minimum Python 3 version needed to run xasy?") == "version"
    assert measure("which miktex version do i need at least?") == "version"
    assert measure("What's new in this version?") is None  # the changes, not a number
    assert measure("From which release on do all 4ti2 commands accept --help?") == "version"
    assert measure("What is the release date of the next version?") is None


def test_a_version_asked_for_by_its_products_name_belongs_to_that_product():
    assert product("Up to which SPSS version can read.spss read .sav files?") == "spss"
    assert product("What is the minimum Python 3 version needed to run xasy?") == "python"
    assert product("which miktex version do i need at least?") == "miktex"
    assert product("Which minimum version of OpenCV does AMC require?") is None  # named after "version"
    assert product("Released at version 1.4, what version number should its update carry?") is None
    assert versioned("Files from versions 5 up to 12 of Stata can be read.", "stata")
    assert versioned("You will need GPL Ghostscript version 9.56 or later.", "ghostscript")
    assert versioned("CLisp (2.29, 2.31 or greater) and Bash-5.0 work.", "clisp")
    assert not versioned("Files from versions 5 up to 12 of Stata can be read.", "spss")
    # The version after the semicolon is Autoconf's.
    assert not versioned("Not all are implemented in Autoconf and/or Automake; but as of Autoconf 2.60 they are.",
                         "automake")


def test_a_quote_giving_another_products_version_does_not_hold_the_version_asked_for():
    asked = "Up to which SPSS version can read.spss read files?"
    stata = "Files from versions 5 up to 12 of Stata can be read and written by read.dta."
    assert not has_kind(stata, Asks.of(asked, "any", "version"))
    assert has_kind(stata, Asks.of("Up to which Stata version can read.dta read files?", "any", "version"))


def test_a_cross_references_number_is_no_value_in_any_measure():
    # The Asymptote manual's "(see Section 8.26 [graph], page 98)" names no MiKTeX release.
    assert not written_in("a graphing module is available (see Section 8.26 [graph], page 98).", "version")
    assert written_in("MiKTeX 2.9 or later is needed (see Section 2.1).", "version")


def test_a_question_naming_its_unit_is_answered_in_that_unit():
    assert measure("What is the default thickness, in points, of the frame that \\fcolorbox draws?") == "points"
    assert measure("What are the default width and height, in inches, of a plot from pdf()?") == "inches"
    assert measure("What wavelength in nanometres does the red LED emit?") == "nanometres"
    assert measure("Which file is in the list?") is None  # "in" before no unit
    assert written_in("\\fboxrule is 0.4pt by default.", "points")
    # The unit by name, away from its number, as a manual's argument list gives it.
    assert written_in("width, height: the width and height of the graphics region in inches. Default 7.", "inches")
    assert not written_in("using the postscript() driver with the height=4 argument", "inches")
    assert not written_in("λ is the wavelength of light from the LED", "nanometres")


def test_a_mass_and_a_timeout_are_asked_for_by_name():
    assert measure("How heavy is the iron ball, and what is its diameter?") == "mass"
    assert written_in("The ball weighs 8.5 g.", "mass")
    assert not written_in("l is the distance from the centre of the magnet to the point of suspension", "mass")
    assert measure("What is the default connection timeout when Bash opens a /dev/tcp redirection?") == "span"
    assert measure("What is the default weight of a glob pattern?") is None  # a priority, not a mass


def test_an_amount_of_money_has_its_currency_sign_before_or_after_it():
    assert written_in("The course costs 500 €.", "money") and written_in("The course costs €500.", "money")
    assert written_in("Parking is 12,50€ a day.", "money")
    assert not written_in("The course lasts 500 minutes.", "money")
