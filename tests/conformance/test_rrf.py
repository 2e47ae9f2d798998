"""RRF reproduces every case of the CiteNexus conformance vectors exactly."""

from __future__ import annotations

import hashlib
import json
import re

import pytest
from citedesk_engine.retrieve import rrf_fuse
from conftest import CONFORMANCE

CASES = json.loads((CONFORMANCE / "rrf.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[f"case{i}" for i in range(len(CASES))])
def test_rrf_conformance(case: dict) -> None:
    assert [unit for unit, _ in rrf_fuse(case["lists"], k=case["k"])] == case["fused"]


def test_scores_follow_the_formula() -> None:
    fused = dict(rrf_fuse([["a", "b"], ["b"]], k=60))
    assert fused["a"] == pytest.approx(1 / 61)
    assert fused["b"] == pytest.approx(1 / 62 + 1 / 61)


def test_three_way_ties_are_exact_whatever_the_list_order() -> None:
    lists = [["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"]]
    for rotation in range(3):
        rotated = lists[rotation:] + lists[:rotation]
        assert [u for u, _ in rrf_fuse(rotated)] == ["a", "b", "c"]


@pytest.mark.parametrize("name", ["rrf.json", "tokenize_v2.json", "languages.json"])
def test_vendored_vectors_are_the_upstream_copies_their_notice_names(name: str) -> None:
    """The copies under tests/data are CiteNexus's files byte for byte: their SHA-256 is the one their
    NOTICE records (`make check-vendored` compares them with the team's copy, where there is one)."""
    notice = (CONFORMANCE / "NOTICE").read_text(encoding="utf-8")
    recorded = dict((n, h) for h, n in re.findall(r"^\s*([0-9a-f]{64})\s+(\S+)$", notice, re.MULTILINE))
    assert hashlib.sha256((CONFORMANCE / name).read_bytes()).hexdigest() == recorded[name]
