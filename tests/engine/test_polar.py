"""Yes/no questions: recognised, answered with a sentence, and the yes or no kept only when it follows."""

from __future__ import annotations

import pytest
from citedesk_engine.answer.polar import asks_yes_or_no, is_polar, polar_answer
from citedesk_engine.answer.prompts import POLAR, SYSTEM, build_messages
from citedesk_engine.types import EvidenceUnit


@pytest.mark.parametrize(
    "question",
    [
        "Does VADER need training data?",
        "Is SaTScan an R package?",
        "should I include /proc and /sys in my backups?",
        "If I press Enter in the equation editor, does the formula continue on a new line?",
        "Can't the buyer return the goods?",
    ],
)
def test_yes_no_questions_are_recognised(question: str) -> None:
    assert is_polar(question) and asks_yes_or_no(question)


@pytest.mark.parametrize(
    "question",
    [
        "What does the sticky bit do on a directory?",
        "Who funded this study?",
        "How is a formula embedded in a Writer document?",
        "Island, what does it mean?",
        "Doesnt matter: which file holds the passwords?",
    ],
)
def test_other_questions_are_not(question: str) -> None:
    assert not is_polar(question)


def test_a_question_offering_alternatives_is_answered_by_naming_one() -> None:
    question = "Is Rcpp or SWIG the older project?"
    assert is_polar(question) and not asks_yes_or_no(question)


def test_the_yes_or_no_follows_from_a_sentence_that_restates_the_question_with_the_right_negation() -> None:
    question = "Does VADER need training data?"
    answer = polar_answer(question, "No, VADER does not need training data")
    assert answer is not None and answer.said == "no" and answer.follows
    assert answer.sentence == "VADER does not need training data"
    assert polar_answer(question, "Yes: VADER needs training data").follows
    # The sentence says the opposite of the answer: the reader gets the sentence alone.
    assert not polar_answer(question, "Yes, VADER does not need training data").follows
    assert not polar_answer(question, "No. VADER needs training data").follows
    # A sentence that does not restate the question decides nothing by its negation.
    assert not polar_answer(question, "No, VADER is built from a human-curated lexicon").follows
    # A negated question: "yes" agrees with a negated sentence.
    negated = "Is C++ not vectorized like R?"
    assert polar_answer(negated, "Yes, C++ is not vectorized like R").follows
    assert not polar_answer(negated, "No, C++ is not vectorized like R").follows
    # A bare yes or no has no sentence; an answer that is no yes or no is no polar answer.
    bare = polar_answer(question, "NO")
    assert bare is not None and bare.sentence == "" and not bare.follows
    assert polar_answer(question, "Nobody knows") is None
    assert polar_answer("What does VADER need?", "No training data") is None


def test_a_yes_no_question_gets_the_prompt_for_yes_no_answers() -> None:
    unit = EvidenceUnit("u-1", "/docs/a.txt", "v", 0, "VADER requires no training data.", 0, 32)
    assert build_messages("Does VADER need training data?", [unit], max_chars=400)[0]["content"] == POLAR
    assert build_messages("What does VADER need?", [unit], max_chars=400)[0]["content"] == SYSTEM
    assert build_messages("Is it VADER or LIWC?", [unit], max_chars=400)[0]["content"] == SYSTEM


@pytest.mark.parametrize(
    ("question", "polar"),
    [
        ("Hat jeder das Recht auf Bildung?", True),
        ("Darf ein Staat Gefangene foltern?", True),
        ("Gibt es eine Begrenzung der Arbeitszeit?", True),
        ("Wer hat das Recht auf Bildung?", False),
        ("Wie ändere ich den Standard-Editor?", False),
        ("Peut-on refuser ces droits à quelqu'un ?", True),
        ("Les auteurs sont-ils protégés ?", True),
        ("Est-ce que le paquet est installé ?", True),
        ("Y a-t-il une limite ?", True),
        ("Sur quoi l'autorité doit-elle reposer ?", False),
        ("Quels devoirs une personne a-t-elle ?", False),
    ],
)
def test_german_and_french_yes_no_questions_are_recognised(question: str, polar: bool) -> None:
    assert is_polar(question) is polar


def test_a_german_or_french_question_offering_alternatives_is_no_yes_no_question() -> None:
    assert not asks_yes_or_no("Ist es ein Paket oder ein Programm?")
    assert not asks_yes_or_no("Est-ce un paquet ou un programme ?")


def test_ja_nein_oui_non_answers_are_read_like_yes_and_no() -> None:
    answer = polar_answer("Darf ein Staat foltern?", "Nein, ein Staat darf nicht foltern.")
    assert answer is not None and answer.said == "nein" and answer.follows
    assert answer.sentence == "Ein Staat darf nicht foltern."
    oui = polar_answer("Peut-on changer de religion ?", "Oui, on peut changer de religion.")
    assert oui is not None and oui.said == "oui" and oui.sentence == "On peut changer de religion."


def test_a_yes_no_question_in_another_language_is_asked_to_be_answered_in_it() -> None:
    unit = EvidenceUnit("v-0", "d", "v", 0, "Jeder hat das Recht auf Bildung.", 0, 10)
    german = build_messages("Hat jeder das Recht auf Bildung?", [unit], max_chars=500, answer_language="de")
    assert german[0]["content"] == POLAR + " Write the answer in German."
    english = build_messages("Does everyone have a right to education?", [unit], max_chars=500)
    assert english[0]["content"] == POLAR  # English questions: the prompt as it was


def test_english_questions_opening_with_a_word_that_is_also_german_are_not_yes_no() -> None:
    assert not is_polar("War broke out in which year?")
    assert not is_polar("Bin Laden was found where?")
