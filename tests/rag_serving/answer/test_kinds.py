"""Answer kinds: what a question asks for and whether a text holds it."""

from concurrent.futures import ThreadPoolExecutor

import pytest

from rag_serving.answer.kinds import _OPENING_KINDS, Asks, asks_bound, has_kind, kind_of


def holds(text: str, kind: str, asked: str = "") -> bool:
    """has_kind for a question of that kind, naming no measure."""
    return has_kind(text, Asks.of(asked, kind))


def test_answer_kinds_from_question_words():
    assert kind_of("When does the pilot end?") == "date"
    assert kind_of("Who owns the password policy?") == "person"
    assert kind_of("What is the remote work policy?") == "any"


def test_a_quantity_named_after_what_asks_for_a_number_and_a_dress_code_does_not():
    assert kind_of("What's the internal phone extension for the IT Service Desk?") == "number"
    assert kind_of("Which error codes were added in revision C?") == "number"
    assert kind_of("Is there an annual pot of money for training?") == "number"
    assert kind_of("What is the dress code?") == "any"
    assert kind_of("What is the process for changing the code of conduct?") == "any"


def test_a_port_asked_for_is_a_number():
    assert kind_of("What ports do I use for incoming and outgoing mail?") == "number"
    assert kind_of("which port do i need to forward for syncthing?") == "number"
    assert not holds("Configure port forwarding on your router so that these ports can be reached.", "number")
    assert kind_of("Where is the report kept?") == "place"  # "report" ends in "port" and asks for no number


def test_a_steps_own_number_is_not_the_number_asked_for():
    asked = "which port do i need to forward so syncthing can reach my box?"
    assert not holds("1.If your box is behind a router, you will need to set up port forwarding.", "number", asked)
    assert holds("2. Forward TCP port 22000 on your router.", "number", asked)


def test_how_many_is_answered_by_a_count_not_by_how_often():
    asked = "how many CRAN mirror sites are there worldwide?"
    assert not holds("The main site is mirrored daily to many sites around the world.", "number", asked)
    assert holds("It is mirrored daily to 100 sites.", "number", asked)
    assert holds("The site is mirrored daily.", "number", "What is the mirror frequency?")  # how often, asked


def test_how_wide_tall_high_deep_or_thick_asks_for_a_number():
    # The beamer guide's "width=<dimension> sets the width of the sidebar" says no width.
    asked = "How wide is the sidebar in the Berkeley theme if I don't pass the width option?"
    assert kind_of(asked) == "number" and kind_of("how tall can the label be") == "number"
    assert not holds("width=<dimension> sets the width of the sidebar.", "number", asked)
    assert holds("The sidebar is 2.5cm wide by default.", "number", asked)


def test_a_physical_measure_is_written_in_digits_not_in_number_words():
    asked = "At about what frequency does the piezo buzzer produce its loudest sound?"
    beats = "Study the beats produced by two Piezo buzzers excited by two nearby frequencies."
    assert not holds(beats, "number", asked)
    assert holds("The buzzer is loudest at about 3500 Hz.", "number", asked)
    asked = "Which TCP port does apt-cacher listen on by default?"
    assert not holds("If you have more than one Debian machine, use apt-cacher.", "number", asked)
    assert holds("apt-cacher listens on port 3142.", "number", asked)
    # "How far in advance" is answered in words as often, and how many is a count.
    assert holds("Book at least two weeks ahead.", "number", "How far in advance do I book?")
    assert holds("Two silicon diodes come with it.", "number", "How many diodes come with it?")


def test_a_date_asked_for_by_name_is_only_answered_by_a_date():
    asked = "On what date was 4ti2 version 1.6 released?"
    assert not holds("The old API was declared obsolete in glpk 4.47 and removed in 4.52.", "date", asked)
    assert holds("Version 1.6 was released on 12 March 2013.", "date", asked)
    assert holds("Before the end of your last working day.", "date", "When are accounts disabled?")


def test_a_date_format_asked_for_is_not_a_date():
    assert kind_of("What date format goes in the trailer line of a changelog entry?") == "any"
    assert kind_of("What time zone do the timestamps use?") == "any"
    assert kind_of("Which date was Labor Day observed on?") == "date"


def test_a_cross_reference_is_not_the_number_asked_for():
    assert not holds("The remote work rules in section 2.4 continue to apply.", "number")
    assert not holds("See page 7 and Table 3.", "number")
    assert holds("Section 2.4 allows up to 3 remote days.", "number")


def test_a_number_the_question_says_is_not_the_number_asked_for():
    asked = "What is the maximum company match on the 401(k)?"
    assert not holds("All part-time employees may join the 401(k) plan and receive the full match.", "number", asked)
    assert holds("All part-time employees may join the 401(k) plan.", "number")  # without the question it is one
    assert holds("The match is at most 4 percent of pay in the 401(k).", "number", asked)


def test_a_limit_asked_for_is_answered_by_a_sentence_stating_one():
    asked = "What is the maximum number of connections R allows to be open at the same time?"
    assert not has_kind("The three terminal connections are always open.", Asks.of(asked))
    assert has_kind("At most 128 connections can be open at once.", Asks.of(asked))
    assert has_kind("There is no limit to the number of else if clauses.", Asks.of("Is there a max number of else ifs?"))
    assert has_kind("Passwords must be at least 14 characters long.", Asks.of("What is the minimum password length?"))
    # A kind of no particular kind is held to the bound too: a sentence on the subject that states none answers nothing.
    largest = "What is the largest Roman numeral that \\rmntonum can convert?"
    assert kind_of(largest) == "any" and not has_kind("\\rmntonum fills this gap.", Asks.of(largest))


def test_a_superlative_over_what_is_a_condition_or_a_unit_of_time_asks_for_no_bound():
    assert asks_bound("How many students can a single AMC test have at most?")
    assert asks_bound("how deep can function calls nest?") and asks_bound("Whats the speed limit?")
    assert asks_bound("What is the largest depth value an object can have?")  # over what can be
    assert not asks_bound("Which medical plan has the lowest deductible?")  # over what is
    assert not asks_bound("What was the revenue of the segment with the highest growth in 2018?")
    assert not asks_bound("How many organisations does the report introduce in detail (at least one paragraph)?")
    assert not asks_bound("Which programme allows the maximum of 3 years full-time?")  # the bound is given
    assert not asks_bound("A transmitter has a rated maximum output power of 10 W. What separation is recommended?")
    assert not asks_bound("got a 20 min slot, how many frames should I aim for?")
    assert not asks_bound("How long is parental leave?")


def test_a_code_is_the_number_asked_for_only_when_a_number_or_code_is_asked_for():
    escalate = "If a P1 or P2 ticket is not progressing, ask the Service Desk to escalate it."
    assert not holds(escalate, "number", "How fast will someone respond to a P2 ticket?")
    assert holds("Response 1 hour, target resolution 8 business hours.", "number",
                    "How fast will someone respond to a P2 ticket?")
    assert holds("Replace fan assembly X200-FAN-12.", "number", "Which part number do I order for the fan?")
    assert holds("a 10-year warranty", "number", "What is the warranty period?")  # lower case: a quantity


def test_a_name_ending_in_digits_is_not_the_number_asked_for():
    asked = "What is the maximum size of a mime.cache file?"
    assert not holds("It holds the same information as the globs2 and magic files, in utf8.", "number", asked)
    assert holds("It holds at most 24h of data, in 4MB blocks.", "number", asked)  # a number first: an amount


def test_a_consequence_drawn_from_a_cause_gives_the_reason():
    why = "Why does copying an Array cost the same however big it is?"
    assert holds("Memory is managed by reference counting, so the cost is independent of the size.", "reason", why)
    assert holds("The second expression is 2.5, which is rounded to 3, hence the test expands to true.", "reason")
    assert not holds("The cost of copying is independent of the size of the array.", "reason", why)
    assert not holds("Set it so: first the name, then the value.", "reason")  # "so" without a cause before it
    assert not holds("Thus: if [ -z \"$PS1\" ]; then echo interactive; fi", "reason")  # an example follows


def test_when_setting_the_scene_is_no_opening():
    assert kind_of("When automatic wrapping splits a long line, how far in are the pieces shifted?") == "number"
    assert kind_of("When I submit my expenses, who approves them?") == "person"
    assert kind_of("When does the pilot end?") == kind_of("When is the deadline?") == "date"


def test_a_range_states_a_bound():
    asked = Asks.of("What is the largest base allowed in shell arithmetic?")
    assert has_kind("The base is a decimal number between 2 and 64.", asked)
    assert not has_kind("The base is a decimal number such as 16.", asked)


def test_has_kind_finds_numbers_dates_and_names():
    assert holds("up to sixteen weeks", "number") and not holds("as agreed", "number")
    assert holds("ends on 31 March", "date") and not holds("ends soon", "date")
    assert holds("The policy is owned by Tomasz Wieczorek.", "person")


def test_which_department_is_answered_by_naming_it():
    asked = "Which departments are taking part in the four-day week pilot?"
    assert kind_of(asked) == "person"
    assert not holds("We are piloting a four-day working week in two departments at HQ.", "person", asked)
    assert holds("Employees in the Customer Operations and Finance departments will work 32 hours.", "person", asked)


def test_when_is_answered_by_a_condition_a_span_or_an_event_unless_it_asks_about_the_past():
    note = "When do I need a doctor's note for being off sick?"
    assert kind_of(note) == "date"
    assert holds("For absences of more than five consecutive working days, a note is required.", "date", note)
    assert holds("Accounts are disabled by the end of their last working day.", "date",
                    "When are their accounts switched off?")
    assert not holds("A note from a doctor or other licensed provider is accepted.", "date", note)
    past = "When did Acme stop paying the allowance?"
    assert not holds("Acme stopped paying the allowance after the review.", "date", past)
    assert holds("Acme stopped paying the allowance in March 2024.", "date", past)


def test_where_is_answered_by_a_place():
    asked = "Where do I find my asset tag?"
    assert kind_of(asked) == "place" and kind_of("What is the site where X200 units are made?") == "any"
    assert holds("It is on the silver sticker on your laptop.", "place", asked)
    assert holds("Send it to servicedesk@acme-logistics.example", "place", asked)
    assert not holds("- Have your asset tag number ready.", "place", asked)


def test_the_opening_word_says_what_is_asked_before_a_money_word_inside():
    assert kind_of("When did Acme stop paying the allowance?") == "date"
    assert kind_of("Who pays the allowance?") == "person"
    assert kind_of("How much is the allowance?") == "number"
    assert kind_of("Is there an allowance for home internet?") == "number"


def test_a_role_or_trade_answers_who():
    # "Who may open the refrigeration circuit?" is answered by a trade, not a name.
    assert holds("Only technicians holding a current certification may open the circuit.", "person")
    assert holds("Interval: Annually | Task: Leak test | Performed by: Certified contractor", "person")
    assert holds("Claims above $500 must be approved by a department director.", "person")
    assert not holds("The circuit is opened once a year for a leak test.", "person")
    assert not holds("A blocked drain leads to ice on the evaporator.", "person")


def test_the_role_a_question_asks_about_does_not_answer_it():
    asked = "Who is Acme's Data Protection Officer?"
    row = "Sharing outside Acme: Only with CISO or Data Protection Officer approval, encrypted"
    assert holds(row, "person") and not holds(row, "person", asked)
    assert holds("The Data Protection Officer is Priya Nandakumar.", "person", asked)
    assert holds("Contact the privacy team.", "person", asked)  # a role the question did not name


def test_why_questions_need_a_reason_in_the_passage():
    assert kind_of("Why was Gate A closed at night?") == "reason"
    assert holds("Gate A closes at night to reduce noise for neighbours.", "reason")
    assert not holds("Gate A is staffed 24 hours a day.", "reason")


def test_may_is_a_date_only_beside_a_day_or_a_year():
    assert not holds("A participating team may end its participation early.", "date")
    assert holds("The pilot ends on 1 May.", "date") and holds("Reviewed in May 2025.", "date")


def test_many_threads_read_the_kinds_as_one_thread_does():
    cases = [("How many forklifts does North Yard have?", "North Yard runs 14 forklifts."),
             ("When did the allowance stop?", "It stopped in March 2024."),
             ("Where do I find my asset tag?", "It is on the silver sticker."),
             ("Which departments take part?", "Customer Operations and Finance take part."),
             ("What is the maximum match on the 401(k)?", "The 401(k) plan is open to all."),
             ("What is the largest numeral it can convert?", "It converts numerals up to 3999."),
             ("When wrapping splits a long line, how far in are the pieces shifted?", "They are shifted by 20pt."),
             ("What range of values does the quality accept?", "Quality can be from 0 to 100."),
             ("With a 10 pt font, how much space does LetterSpace=1.0 add?", "It adds 0.1 pt.")] * 40

    def read(case):
        question, text = case
        kind = kind_of(question)
        return kind, has_kind(text, Asks.of(question, kind))

    expected = [read(c) for c in cases]
    with ThreadPoolExecutor(8) as pool:
        for _ in range(5):
            assert list(pool.map(read, cases)) == expected


def test_the_opening_words_table_cannot_be_changed():
    with pytest.raises(TypeError):
        _OPENING_KINDS["how"] = "number"  # type: ignore[index]



def test_asking_for_the_explanation_asks_why():
    # A sentence restating what the question asks about ("The second peak is bigger than the first peak.") gives no
    # explanation of it.
    assert kind_of("What is the explanation for the second peak being bigger than the first?") == "reason"
    assert kind_of("Can you explain why the fuse blows?") == "reason"
    assert not holds("The second peak is bigger than the first peak.", "reason")


def test_a_purpose_opening_the_sentence_is_a_reason():
    assert holds("To make such scripts portable among different systems, it is advantageous to standardize the "
                 "interpreter locations.", "reason")
    # An instruction is no purpose: "to" must open a clause that a comma closes.
    assert not holds("To the right of the gate is the yard office.", "reason")
    assert not holds("Send the form to payroll, then wait.", "reason")


def test_a_number_the_question_says_is_read_whole_and_blanks_only_itself():
    # "1.0" in the question is no answer; the "0.1" of the answer is, though its digits are the question's too.
    asked = "With a 10 pt font, how much space does LetterSpace=1.0 put between letters?"
    assert has_kind("For a 10 pt font, a parameter of 1.0 will add 0.1 pt between each letter.", Asks.of(asked))
    assert not has_kind("For a 10 pt font, set LetterSpace=1.0 in the options.", Asks.of(asked))


def test_a_range_asked_for_is_answered_by_two_bounds():
    asked = "What range of values does the JPEG quality setting accept?"
    assert asks_bound(asked)
    for stated in ("Quality can be from 0 to 100.", "The quality is 0-100.", "Values between 1 and 99 are accepted."):
        assert has_kind(stated, Asks.of(asked))
    assert not has_kind("Set the quality used when exporting to the JPEG (JFIF) image format.", Asks.of(asked))


def test_a_number_with_its_units_symbol_is_an_amount_and_a_code_is_not():
    assert has_kind("The output is 5V.", Asks.of("What voltage does the output give?"))
    assert has_kind("Hy-SR04 uses a 40kHz transmitter.", Asks.of("What frequency does the HY-SR04 module send out?"))
    assert has_kind("It needs 512MB of RAM.", Asks.of("How much memory does it need?"))
    assert has_kind("It supplies 10mA.", Asks.of("How much current does it supply?"))
    # A letter that is also a code's counts as a unit only with its prefix.
    assert not has_kind("Go to room 2B.", Asks.of("How many rooms are there?"))
