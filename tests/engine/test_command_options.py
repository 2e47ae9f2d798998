"""A command-line option that the answer puts beside a word the passage never puts beside it."""

from __future__ import annotations

import pytest
from citedesk_engine.answer.command_options import unpaired_option
from citedesk_engine.export import check_words
from factories import believing_gate

# Python 3.11's json reference (PSF-2.0): the passage "python -m yaml" was cited from, shown as
# verified (verifier 0.91) for "How do I parse YAML in Python?".
JSON_TOOL = (
    "Using json.tool from the shell to validate and pretty-print:\n\n"
    '$ echo \'{"json":"obj"}\' | python -m json.tool\n{\n    "json": "obj"\n}\n'
    "$ echo '{1.2:3.4}' | python -m json.tool\n"
    "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)\n\n"
    "Note\n\nJSON is a subset of YAML 1.2. The JSON produced by this module's default settings (in "
    "particular, the default separators value) is also a subset of YAML 1.0 and 1.1. This module can "
    "thus also be used as a YAML serializer."
)
# Debian's reference manual (GPL-2+), the passage of realdocs q044.
JOURNAL = (
    "Use journalctl -b to read the log of the current boot, and journalctl -b -1 for the boot "
    "before it. The option --user shows the journal of the current user. To limit the output, "
    "use tail -n NUM or head --lines=NUM."
)


@pytest.mark.parametrize(
    ("claim", "passage", "why"),
    [
        # a command the passage never writes: the option with another value, or another program
        ("python -m yaml", JSON_TOOL, "the passage never writes “-m yaml”"),
        ("Run `python -m yaml` on the file.", JSON_TOOL, "the passage never writes “-m yaml”"),
        ("python -m yaml_tools.load", JSON_TOOL, "the passage never writes “-m yaml_tools.load”"),
        ("journalctl --user -b", JOURNAL, "the passage never writes “journalctl --user”"),
        # the passage's own commands, however quoted or punctuated
        ("python -m json.tool", JSON_TOOL, ""),
        ("$ python -m json.tool", JSON_TOOL, ""),
        ("`python -m json.tool`.", JSON_TOOL, ""),
        ("journalctl -b", JOURNAL, ""),
        ("journalctl -b -1", JOURNAL, ""),
        ("The -b option of journalctl", JOURNAL, ""),  # English around the option, not a command
        ("Use the option --user.", JOURNAL, ""),
        ("tail -n 20", JOURNAL, ""),  # the passage leaves the value to fill: "-n NUM"
        # no option: nothing to pair
        ("json.tool", JSON_TOOL, ""),
        ("pip -m json.tool", JSON_TOOL, ""),  # "pip" is not the passage's: "answer not in passage"
        ("It is non-negative and -5 is not.", JSON_TOOL, ""),
    ],
)
def test_an_option_must_stand_beside_the_words_the_passage_puts_beside_it(
    claim: str, passage: str, why: str
) -> None:
    assert unpaired_option(claim, passage, "How do I parse YAML in Python?") == why


def test_the_gate_refuses_a_command_the_passage_never_writes() -> None:
    gate = believing_gate()
    question = "How do I parse YAML in Python?"
    verdict = gate.check("python -m yaml", [JSON_TOOL], question)
    assert not verdict.supported
    assert verdict.check == "guard: option"
    # the card says why in the passage's terms
    assert check_words(verdict.method) == "the passage never writes “-m yaml”"
    right = gate.check("python -m json.tool", [JSON_TOOL], "How do I pretty-print JSON from the shell?")
    assert right.supported, right.method


def test_words_around_an_option_that_are_english_are_no_part_of_the_command() -> None:
    # Debian's reference manual (GPL-2+): "needs" paraphrases "requires", no program
    passage = "pushing this branch has risks and requires --force option."
    assert unpaired_option("pushing this branch needs --force option.", passage) == ""
    # a comma ends the command: "journalctl" is not the value of --user
    assert unpaired_option("With --user, journalctl shows your own journal.", JOURNAL) == ""
    # a word of the question after the option is its value
    assert unpaired_option("journalctl -b yaml", JOURNAL, "Show me yaml lines") == (
        "the passage never writes “-b yaml”"
    )
    assert unpaired_option("journalctl -b yaml", JOURNAL, "Show me the boot log") == ""
    # a broken word of a PDF ("not-\nfor-profit") is no option with a value
    assert unpaired_option("It is owned by the -for-profit company.", "the not-for-profit company") == ""
