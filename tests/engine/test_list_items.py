"""An answer naming the wrong item of a list of parallel sentences (list_items.py)."""

from __future__ import annotations

from citedesk_engine.answer.list_items import other_item
from citedesk_engine.answer.verify import ClaimVerifier
from citedesk_engine.config import VerifyConfig
from citedesk_engine.export import check_words
from factories import believing_gate

# Python's logging HOWTO (PSF-2.0), "Useful Handlers": the real-document set's q074 was answered
# "TimedRotatingFileHandler" and shown as verified (verifier 0.90).
HANDLERS = (
    "In addition to the base Handler class, many useful subclasses are provided:\n\n"
    "StreamHandler instances send messages to streams (file-like objects).\n\n"
    "FileHandler instances send messages to disk files.\n\n"
    "BaseRotatingHandler is the base class for handlers that rotate log files at a certain point.\n\n"
    "RotatingFileHandler instances send messages to disk files, with support for maximum log file sizes "
    "and log file rotation.\n\n"
    "TimedRotatingFileHandler instances send messages to disk files, rotating the log file at certain "
    "timed intervals.\n\n"
    "SMTPHandler instances send messages to a designated email address."
)
ROTATES = "Which handler rotates log files once they reach a maximum size?"


def test_a_name_opening_another_item_than_the_one_the_question_describes_is_refused() -> None:
    assert other_item("TimedRotatingFileHandler", HANDLERS, ROTATES) == (
        "the passage says that of RotatingFileHandler, not of TimedRotatingFileHandler"
    )
    assert other_item("`SMTPHandler`", HANDLERS, ROTATES)
    assert other_item("RotatingFileHandler", HANDLERS, ROTATES) == ""
    assert other_item("SMTPHandler", HANDLERS, "Which handler sends messages to an email address?") == ""


def test_no_list_no_guard() -> None:
    # a name outside the list, a longer answer, two sentences opening alike, and ordinary prose
    assert other_item("BaseRotatingHandler", HANDLERS, ROTATES) == ""
    assert other_item("RotatingFileHandler instances", HANDLERS, "Which handler sends email?") == ""
    two = "Alpha units store the logs. Beta units store the maximum sizes of the logs."
    assert other_item("Alpha", two, "Which units store the maximum sizes?") == ""
    prose = "The buyer shall pay within 30 days. The seller shall deliver the goods. The agent shall report."
    assert other_item("The", prose, "Who shall deliver the goods?") == ""


def test_the_gate_refuses_the_wrong_item_and_says_why() -> None:
    gate = believing_gate()
    verdict = gate.check("TimedRotatingFileHandler", [HANDLERS], ROTATES)
    assert not verdict.supported and verdict.check == "guard: list item", verdict.method
    assert check_words(verdict.method).startswith("the passage says that of RotatingFileHandler")
    assert gate.check("RotatingFileHandler", [HANDLERS], ROTATES).supported
    assert ClaimVerifier(VerifyConfig()).check("RotatingFileHandler", [HANDLERS], ROTATES).supported
