"""A version, date or dotted name the question writes ("httpx 0.28.1") finds the passage that writes
it: searched as a phrase in the word index, and relevant at the gate where the passage or its section
writes it. Found in a window session on httpx's CHANGELOG.md: "When was httpx 0.28.1 released?" read
the sections of 0.7.2, 0.12.0 and 0.21.0 (their "0", "28" and "1" scattered) and was refused."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from citedesk_engine.answer.gates import relevance_gate
from citedesk_engine.config import AnswerConfig
from citedesk_engine.identifiers import identifiers
from citedesk_engine.index.lexical import LexicalIndex
from citedesk_engine.types import Candidate, EvidenceUnit

# httpx 0.29.0's CHANGELOG.md (BSD-3-Clause), three of its sections.
SECTIONS = {
    "0.28.1 (6th December, 2024)": (
        "## 0.28.1 (6th December, 2024)\n\n"
        "* Fix SSL case where `verify=False` together with client side certificates."
    ),
    "0.7.2 (August 28, 2019)": (
        "## 0.7.2 (August 28, 2019)\n\n"
        "- Enforce using `httpx.AsyncioBackend` for the synchronous client. (Pull #232)\n"
        "- `httpx.ConnectionPool` will properly release a dropped connection. (Pull #230)\n"
        "- Remove the `raise_app_exceptions` argument from `Client`. (Pull #238)\n"
        "- `DecodeError` will no longer be raised for an empty body encoded with Brotli. (Pull #237)\n"
        "- Added `http_versions` parameter to `Client`. (Pull #250)\n"
        "- Only use HTTP/1.1 on short-lived connections like `httpx.get()`. (Pull #284)\n"
        "- Convert `Client.cookies` and `Client.headers` when set as a property. (Pull #274)\n"
        "- Setting `HTTPX_DEBUG=1` enables debug logging on all requests. (Pull #277)"
    ),
    "0.28.0 (28th November, 2024)": (
        "**The following changes are also included**:\n\n"
        "* The deprecated `proxies` argument has now been removed.\n"
        "* The deprecated `app` argument has now been removed."
    ),
}


def units() -> list[EvidenceUnit]:
    return [
        EvidenceUnit(f"v-{n}", "CHANGELOG.md", "v", n, text, 0, len(text), section=section)
        for n, (section, text) in enumerate(SECTIONS.items())
    ]


def test_identifiers_are_versions_dates_and_dotted_names_not_hyphenated_words() -> None:
    assert identifiers("When was httpx 0.28.1 released, and is v2.0 out?") == {"0.28.1", "2.0"}
    assert identifiers("json.loads on 2024-08-14 in ISO-8859-1") == {"json.loads", "2024-08-14", "iso-8859-1"}
    assert identifiers("A well-known, long-lived client. The end.") == set()
    assert identifiers("Did the U.S. sign it, e.g. with a Ph.D. as envoy?") == set()


def test_the_word_index_finds_the_section_writing_the_version(tmp_path: Path) -> None:
    index = LexicalIndex(tmp_path / "lexical")
    index.add(units(), "en")
    # Without the phrase, 0.7.2's section wins: it writes "28" (August 28), "1" (HTTP/1.1) and
    # "release" more often than 0.28.1's short section.
    assert index.search("When was httpx 0.28.1 released?", 3)[0][0] == "v-0"
    index.close()


def test_a_passage_writing_the_version_asked_about_is_relevant_with_enough_of_its_words() -> None:
    question = "When was httpx 0.28.1 released?"
    vector = np.array([1, 0, 0, 0], dtype=np.float32)
    far = np.array([0, 1, 0, 0], dtype=np.float32)  # the embedder and reranker barely read versions
    candidates = [Candidate(u, {}, {}, 1.0, rerank=0.56) for u in units()]
    vectors = {u.unit_id: far for u in units()}
    judged, refusal = relevance_gate(question, vector, candidates, lambda ids: vectors, AnswerConfig())
    assert refusal is None
    assert [j.relevant for j in judged] == [True, False, False]
    # A version no passage writes makes none relevant this way.
    judged, refusal = relevance_gate(
        "When was httpx 0.30.2 released?", vector, candidates, lambda ids: vectors, AnswerConfig()
    )
    assert refusal is not None and not any(j.relevant for j in judged)


def test_the_section_heading_counts_as_what_the_passage_writes() -> None:
    question = "Does httpx 0.28.0 still accept the deprecated proxies argument?"
    vector = np.array([1, 0, 0, 0], dtype=np.float32)
    far = np.array([0, 1, 0, 0], dtype=np.float32)
    removed = units()[2]  # its text never writes 0.28.0: its section does
    stored = {removed.unit_id: far}
    judged, _ = relevance_gate(
        question, vector, [Candidate(removed, {}, {}, 1.0)], lambda ids: stored, AnswerConfig()
    )
    assert judged[0].relevant
