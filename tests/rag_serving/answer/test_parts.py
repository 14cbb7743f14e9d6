from rag_serving.answer.parts import parts, pointers, refers, sides, standalone, topic


def test_a_two_part_question_splits_at_the_second_question_word():
    assert parts("When does it end, and who is coordinating it?") == ["When does it end?", "who is coordinating it?"]
    # The scene belongs to the first part only: the second stays a part of its own.
    assert parts("After I stop violating it, how long does the holder have to notify me, and how long do I get to "
                 "cure it?") == ["After I stop violating it, how long does the holder have to notify me?",
                                 "how long do I get to cure it?"]


def test_a_second_question_after_a_question_mark_is_its_own_part():
    assert parts("Which battery do I order? How long does it usually last?") == [
        "Which battery do I order?", "How long does it usually last?"]


def test_and_inside_one_question_does_not_split_it():
    assert parts("How many weeks of parental and adoption leave do staff get?") == [
        "How many weeks of parental and adoption leave do staff get?"]


def test_a_part_too_short_to_stand_alone_keeps_the_question_whole():
    assert parts("Who is it, and why?") == ["Who is it, and why?"]


def test_two_years_named_are_the_sides_of_a_comparison():
    assert sides("How many more days does the 2025 edition give compared with the 2024 edition?") == ("2025", "2024")


def test_one_year_is_no_comparison():
    assert sides("How many days of leave does the 2025 handbook give?") == ()


def test_a_part_referring_back_is_searched_with_the_parts_before_it():
    pieces = parts("E-111 came up on the unit. Which battery do I order, and how long does it usually last?")
    assert standalone(pieces) == [
        "E-111 came up on the unit. Which battery do I order?",
        "E-111 came up on the unit. Which battery do I order? how long does it usually last?",
    ]


def test_parts_about_different_things_are_searched_alone():
    pieces = parts("How many days of annual leave do full-time staff get, and how many days of sick leave?")
    assert standalone(pieces) == pieces


def test_a_leading_phrase_that_asks_nothing_is_not_a_part():
    question = "In the 2024 handbook, how long was parental leave for full-time employees?"
    assert parts(question) == [question]


def test_a_leading_condition_stays_with_the_first_part_and_the_question_still_splits():
    assert parts("If I'm out on parental leave, does that time still count toward my annual bonus, and how long is "
                 "the leave?") == ["If I'm out on parental leave, does that time still count toward my annual bonus?",
                                   "how long is the leave?"]


def test_am_i_opens_a_part():
    assert parts("How can I get the logs off the unit, and am I allowed to use a USB stick for that?") == [
        "How can I get the logs off the unit?", "am I allowed to use a USB stick for that?"]


TITLES = ["Employee Handbook 2025", "Employee Handbook 2024", "IT Helpdesk Quick Reference", "X200 Product Manual"]


def test_documents_a_question_asks_to_compare_are_its_sides_editions_as_one():
    question = "Do the employee handbook and the IT helpdesk sheet agree on how quickly I have to report it?"
    assert sides(question, TITLES) == ("employee handbook", "it helpdesk quick reference")


def test_documents_named_without_asking_to_compare_are_not_sides():
    assert sides("What does the employee handbook say about the IT helpdesk hours?", TITLES) == ()


def test_years_are_the_sides_even_when_documents_are_named():
    assert sides("Is the 2025 handbook different from the 2024 one?", TITLES) == ("2025", "2024")


def test_the_topic_of_a_comparison_drops_its_sides_its_comparing_words_and_the_kind_of_document():
    question = "Did parental leave go up or down between the 2024 and 2025 handbooks?"
    assert topic(question, sides(question)) == "Did parental leave or the and"


def test_an_existential_there_or_a_standing_in_it_points_back_at_nothing():
    assert pointers("Is there a cap on sick days?") == frozenset()
    assert pointers("Is it possible to carry over leave?") == frozenset()
    assert refers("how long does it last?") and not refers("and is there a limit?")
    assert pointers("Is there a form for that?") == {"that"}


def test_a_clarifying_question_names_no_standing_in_word():
    from rag_serving.answer.routing import clarifying_question

    assert clarifying_question("Is there a limit?", []).startswith("Could you say a bit more")
    assert clarifying_question("Is that allowed?", []).startswith("What does “that” refer to?")



def test_a_clause_setting_the_scene_with_when_is_not_a_part():
    question = "When automatic wrapping splits an overlong code line, how far in are the pieces shifted?"
    assert parts(question) == [question]
    assert parts("When does it end, and who is coordinating it?") == ["When does it end?", "who is coordinating it?"]
    # The scene belongs to the first part only: the second stays a part of its own.
    assert parts("After I stop violating it, how long does the holder have to notify me, and how long do I get to "
                 "cure it?") == ["After I stop violating it, how long does the holder have to notify me?",
                                 "how long do I get to cure it?"]


def test_what_the_difference_between_two_terms_is_asks_what_each_is():
    assert parts("In the manual's terminology, what is the difference between a tint and a shade of a color?") == [
        "In the manual's terminology, what is a tint of a color?", "In the manual's terminology, what is a shade of a "
        "color?"]
    assert parts("whats the difference between a DD and a DM in debian?") == ["whats a DD in debian?",
                                                                             "whats a DM in debian?"]
    # Whether there is a difference is one question; a difference between years compares editions.
    assert parts("Is there a difference between sick leave and vacation?") == [
        "Is there a difference between sick leave and vacation?"]
    assert parts("What is the difference between the 2024 and 2025 handbooks?") == [
        "What is the difference between the 2024 and 2025 handbooks?"]
