"""Names the library never writes: the question's words that are no English word, looked up in the
library's index with a spelling tolerance, in the documents' names, and as parts of a longer name."""

from __future__ import annotations

import pytest
from citedesk_engine.answer.unknown_terms import unknown_reason, unknown_terms
from citedesk_engine.index.lexical import LexicalIndex
from citedesk_engine.models.english_lexicon import EnglishLexicon
from citedesk_engine.types import EvidenceUnit

LEXICON = EnglishLexicon()  # the packaged word list, read at the first word (about 2 s)


def unknown(question: str, library: str, names: tuple[str, ...] = ()) -> list[str]:
    written = {w.lower() for w in library.split()}
    return unknown_terms(question, LEXICON.knows, lambda word: word.lower() in written, names)


def test_a_name_the_library_never_writes_is_unknown() -> None:
    library = "Configure logging with dictConfig and a standard module"
    assert unknown("How do I configure structlog together with the standard logging module?", library) == [
        "structlog"
    ]
    assert unknown("How do I configure dictConfig?", library) == []


def test_english_words_their_typos_stopwords_and_short_words_are_not_looked_up() -> None:
    assert unknown("How do I configure logging?", "") == []  # English, whatever the library writes
    assert unknown("What is used to guage it?", "") == []  # one edit from "gauge"
    assert unknown("Whch one feedsentirely on it?", "") == []  # "which"; "feeds" + "entirely"
    assert unknown("Is the GPU a VPN?", "") == []  # fewer than four letters
    assert unknown("Hwere is it kept?", "") == []  # the first two letters swapped


def test_a_name_one_letter_before_an_english_word_is_looked_up() -> None:
    # "rsync" is "sync" with a letter before it, "ifconfig" no word at all: typos keep the first letter.
    assert unknown("How do I copy files with rsync --partial?", "copy files with cp") == ["rsync"]
    assert unknown("How do I copy files with rsync --partial?", "rsync copies files") == []
    assert unknown("What does the ematrix hold?", "") == ["ematrix"]


def test_a_surname_the_library_writes_names_the_person() -> None:
    library = "Marshall argued Brown v. Board of Education before the Supreme Court"
    assert unknown("What case did Thurgood Marshall argue?", library) == []
    assert unknown("What case did Thurgood Marshall argue?", "the Supreme Court") == [
        "Thurgood"
    ]  # Marshall: English


def test_a_documents_file_name_or_title_is_known() -> None:
    assert unknown("What does xtableGallery say about alignment?", "", ("xtableGallery.pdf",)) == []


def test_the_reason_names_each_word_and_says_what_to_do() -> None:
    reason = unknown_reason(["structlog", "loguru"])
    assert "“structlog” or “loguru”" in reason and "spelling" in reason
    assert "(and 2 more)" in unknown_reason(["aaaa", "bbbb", "cccc", "dddd", "eeee"])


def test_a_pasted_page_is_looked_up_twenty_words_at_most() -> None:
    looked: list[str] = []

    def written(word: str) -> bool:
        looked.append(word)
        return False

    pasted = " ".join(f"zq{chr(97 + i // 26)}{chr(97 + i % 26)}xv" for i in range(100))
    assert len(unknown_terms(pasted, LEXICON.knows, written)) == 20 and len(looked) == 20


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> LexicalIndex:
    texts = [
        "Mahatma Gandhi led the Salt March. The contractor purchased the land.",
        "Céloron buried lead plates along the Ohio.",
    ]
    units = [EvidenceUnit(f"u{i}", "/d.txt", "v", i, t, 0, len(t)) for i, t in enumerate(texts)]
    # a spreadsheet's sheet: its name stands in the indexed text, not in the passage
    table = EvidenceUnit(
        "t0",
        "/s.xlsx",
        "v",
        0,
        "weight,feed\n179,horsebean",
        0,
        20,
        section="chickwts",
        context="weight,feed",
    )
    index = LexicalIndex(tmp_path_factory.mktemp("lexical"))
    index.add([*units, table])
    return index


@pytest.mark.parametrize(
    ("word", "written"),
    [
        ("Gandhi", True),
        ("Ghandi", True),  # two letters moved: two edits, allowed from six letters
        ("purhcased", True),  # swapped letters of a stemmed word
        ("Celeron", True),  # "Céloron", an accent and a letter away
        ("chickwts", True),  # a sheet's name
        ("structlog", False),
        ("Gandi", True),  # one edit, five letters
        ("Gxndx", False),  # two edits, five letters: too far
    ],
)
def test_the_index_finds_a_word_and_words_spelled_like_it(
    index: LexicalIndex, word: str, written: bool
) -> None:
    assert index.writes_like(word) is written


def test_the_english_word_list_knows_inflections_and_not_names() -> None:
    assert all(LEXICON.knows(w) for w in ("configured", "mice", "handlers", "logging"))
    assert not any(LEXICON.knows(w) for w in ("structlog", "wireguard", "gethandlerbyname"))
