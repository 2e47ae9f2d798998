from __future__ import annotations

import json

import pytest
from citedesk_engine.answer.gates import SUPPORTED_SCRIPTS, script_gate
from citedesk_engine.scripts import script_of, scripts_in
from conftest import CONFORMANCE

VECTORS = json.loads((CONFORMANCE / "tokenize_v2.json").read_text(encoding="utf-8"))
LANGUAGES = json.loads((CONFORMANCE / "languages.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", VECTORS["supported"], ids=lambda c: c["script"])
def test_conformance_texts_are_in_their_script(case: dict) -> None:
    assert scripts_in(case["text"]) == (case["script"],) or case["script"] in scripts_in(case["text"])


def test_japanese_mixes_three_scripts() -> None:
    assert scripts_in("東京はとてもカタカナです") == ("han", "hiragana", "katakana")


def test_unsupported_scripts_are_named() -> None:
    assert scripts_in("ភាសាខ្មែរ") == ("khmer",)
    assert scripts_in("ქართული ენა") == ("georgian",)
    assert scripts_in("123 + 456 = 579 !") == ()
    assert script_of("é") == "latin" and script_of("7") == "common"


def test_supported_scripts_are_the_conformance_ones() -> None:
    assert sorted(SUPPORTED_SCRIPTS) == sorted(LANGUAGES["supported_scripts"])
    assert sorted(SUPPORTED_SCRIPTS) == sorted(VECTORS["supported_scripts"])


@pytest.mark.parametrize("case", VECTORS["unclaimed"], ids=lambda c: c["script"])
def test_unclaimed_scripts_are_refused_by_name(case: dict) -> None:
    refusal = script_gate(case["text"])
    assert refusal is not None and refusal.stage == "script"
    assert refusal.details["unsupported_scripts"] == case["unsupported_scripts"]
    assert case["unsupported_scripts"][0] in refusal.reason and "Ask it in a language" in refusal.reason
