"""The command line's arguments: the options every verb takes may come before the verb."""

from __future__ import annotations

import pytest
from citedesk_engine.cli import build_parser, verb_first


@pytest.mark.parametrize(
    "argv",
    [
        ["--library", "/tmp/lib", "ask", "Who?", "--json"],
        ["ask", "--library", "/tmp/lib", "Who?", "--json"],
        ["--json", "--library=/tmp/lib", "ask", "Who?"],
        ["-v", "--library", "/tmp/lib", "--json", "ask", "Who?"],
    ],
)
def test_the_library_and_json_options_go_before_or_after_the_verb(argv: list[str]) -> None:
    args = build_parser().parse_args(verb_first(argv))
    assert (args.verb, args.library, args.json, args.question) == ("ask", "/tmp/lib", True, "Who?")


def test_arguments_without_a_verb_are_left_as_they_are() -> None:
    # `citedesk --library DIR` opens the window on that library: no verb to move
    assert verb_first(["--library", "/tmp/lib"]) == ["--library", "/tmp/lib"]
    assert verb_first(["--self-test"]) == ["--self-test"]
    # a question that happens to be a verb's name stays the question
    assert verb_first(["ask", "--library", "x", "status"])[:1] == ["ask"]
