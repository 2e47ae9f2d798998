"""Cross-lingual reformulation: which languages, the translations and their cache, the merge of each
retriever's lists, per-language reranking, and a library searched through its other language (fake
embedder and generator; the real models in test_multilingual_real.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from citedesk_engine import Engine
from citedesk_engine.config import Config, RetrievalConfig, load_config
from citedesk_engine.retrieve.fusion import merge_variants
from citedesk_engine.retrieve.reformulate import QueryReformulator, clean_translation, search_languages
from citedesk_engine.retrieve.rerank import rerank
from citedesk_engine.testing import HashEmbedder
from citedesk_engine.types import Candidate, EvidenceUnit


class Translator:
    """Answers each translation prompt from a table {language name: reply}; counts the calls."""

    def __init__(self, replies: dict[str, str]) -> None:
        self.replies = replies
        self.asked: list[str] = []

    def generate(self, messages, *, max_tokens, on_token=None, cancel=None):  # type: ignore[no-untyped-def]
        system = messages[0]["content"]
        language = next(name for name in self.replies if f"into {name}." in system)
        self.asked.append(language)
        return self.replies[language]


def english(text: str) -> tuple[str, float]:
    return "en", 0.99


def test_auto_stands_for_the_library_languages_most_documents_first() -> None:
    library = {"a": "de", "b": "de", "c": "fr", "d": "und", "e": "en", "f": "fr", "g": "fr"}
    assert search_languages(["auto"], library) == ["fr", "de", "en"]
    assert search_languages(["it", "auto", "DE"], library) == ["it", "fr", "de", "en"]
    assert search_languages([], library) == []
    assert search_languages(["auto"], {"a": "und"}) == []


def test_the_question_is_translated_into_each_other_language_once() -> None:
    translator = Translator(
        {"German": "Wer hat das Recht auf Bildung?", "French": "Qui a droit à l'éducation ?"}
    )
    reformulator = QueryReformulator(lambda: translator, english)
    found = reformulator.reformulate("Who has the right to education?", ["de", "en", "fr"])
    assert found.variants == {"de": "Wer hat das Recht auf Bildung?", "fr": "Qui a droit à l'éducation ?"}
    assert found.question_language == "en"
    assert translator.asked == ["German", "French"]  # not into English, the question's own
    again = reformulator.reformulate("Who has the right to education?", ["de", "fr"])
    assert again.variants == found.variants and translator.asked == ["German", "French"]  # cached


def test_a_question_is_not_translated_into_its_likeliest_language_however_unsure() -> None:
    translator = Translator({"English": "Education?", "German": "Bildung?"})
    reformulator = QueryReformulator(lambda: translator, lambda text: ("de", 0.3))
    found = reformulator.reformulate("Bildung?", ["en", "de"])
    assert found.variants == {"en": "Education?"} and translator.asked == ["English"]


def test_a_translation_that_is_the_question_itself_is_not_searched_twice() -> None:
    translator = Translator({"English": "bildung ?"})
    found = QueryReformulator(lambda: translator, lambda text: ("de", 0.9)).reformulate("Bildung?", ["en"])
    assert found.variants == {} and found.dropped == {}


def test_auto_leaves_out_languages_of_few_documents_and_keeps_three() -> None:
    library = {f"en{i}": "en" for i in range(20)} | {"code.py": "la"}
    assert search_languages(["auto"], library) == ["en"]  # a misdetected file is not searched for
    assert search_languages(["auto", "la"], library) == ["en", "la"]  # ... unless asked for
    five = {f"{code}{i}": code for code in ("de", "en", "fr", "it", "nl") for i in range(3)}
    assert search_languages(["auto"], five) == ["de", "en", "fr"]


def test_a_reply_that_is_no_translation_is_dropped_and_said() -> None:
    translator = Translator({"German": "Sure! Here is the translation:\nWer hat das Recht auf Bildung?"})
    found = QueryReformulator(lambda: translator, english).reformulate(
        "Who has the right to education?", ["de"]
    )
    assert found.variants == {}
    assert "not a translation" in found.dropped["de"]


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("„Wer hat das Recht auf Bildung?“", "Wer hat das Recht auf Bildung?"),
        ("Translation: Qui a droit à l'éducation ?", "Qui a droit à l'éducation ?"),
        ("  Wer darf wählen?  \n", "Wer darf wählen?"),
        ("", None),
        ("Line one.\nLine two.", None),
        ("Wer " * 80, None),  # far longer than the question: an explanation, not a translation
    ],
)
def test_clean_translation(reply: str, expected: str | None) -> None:
    assert clean_translation(reply, "Who may vote in elections?") == expected


def test_each_retrievers_lists_merge_by_the_best_normalised_score() -> None:
    asked = [("a", 10.0), ("b", 5.0), ("c", 0.0)]
    translated = [("d", 3.0), ("a", 2.0), ("b", 1.0)]
    merged = dict(merge_variants([asked, translated]))
    assert merged == {"a": 1.0, "d": 1.0, "b": 0.5, "c": 0.0}
    assert [u for u, _ in merge_variants([asked, translated])] == ["a", "d", "b", "c"]


def test_each_candidate_is_reranked_against_the_question_in_its_language() -> None:
    units = [
        EvidenceUnit("v-0", "de-doc", "v", 0, "Jeder hat das Recht auf Bildung.", 0, 10),
        EvidenceUnit("v-1", "en-doc", "v", 1, "Everyone has the right to education.", 0, 10),
        EvidenceUnit("v-2", "de-doc", "v", 2, "Die Bildung ist unentgeltlich.", 0, 10),
    ]
    candidates = [Candidate(u, {}, {}, 1.0 - i / 10) for i, u in enumerate(units)]
    seen: list[tuple[str, list[str]]] = []

    class Recording:
        name = "recording"

        def score(self, query, passages):  # type: ignore[no-untyped-def]
            seen.append((query, [p.unit_id for p in passages]))
            return [float(len(p.text)) for p in passages]

    languages = {"de-doc": "de", "en-doc": "en"}
    translated = {"de": "Wer hat das Recht auf Bildung?"}
    out = rerank(
        "Who has the right to education?",
        candidates,
        Recording(),
        head=3,
        query_for=lambda c: translated.get(languages[c.unit.document], "Who has the right to education?"),
    )
    assert seen == [
        ("Wer hat das Recht auf Bildung?", ["v-0", "v-2"]),
        ("Who has the right to education?", ["v-1"]),
    ]
    assert [c.unit.unit_id for c in out] == ["v-1", "v-0", "v-2"]  # by score, whatever the group


@pytest.fixture
def two_language_library(tmp_path: Path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "rechte.txt").write_text(
        "Jeder hat das Recht auf Bildung. Der Grundschulunterricht ist obligatorisch und "
        "unentgeltlich.\n\nJeder hat das Recht auf Eigentum und darf es nicht willkürlich verlieren.",
        encoding="utf-8",
    )
    (docs / "birds.txt").write_text(
        "Penguins cannot fly but they swim very well in cold water near the coast.", encoding="utf-8"
    )
    return docs


def open_engine(folder: Path, translator: Translator, languages: tuple[str, ...]) -> Engine:
    config = Config(retrieval=RetrievalConfig(search_languages=languages, signals=("lexical",)))
    assert RetrievalConfig().search_languages == ("auto",)  # the default
    return Engine.open(folder, config, embedder=HashEmbedder(), generator=translator)


def test_a_library_in_another_language_is_searched_with_the_translated_question(
    two_language_library: Path, tmp_path: Path
) -> None:
    question = "Is elementary schooling free of charge?"
    translator = Translator({"German": "Ist der Grundschulunterricht unentgeltlich?", "English": question})
    with open_engine(tmp_path / "lib", translator, ("auto",)) as engine:
        engine.ingest([two_language_library])
        assert engine.library.manifest.per_document("language") != {}
        retrieval = engine.retrieve(question, 1)
        assert "Grundschulunterricht" in retrieval.candidates[0].unit.passage
        stages = [t.stage for t in retrieval.trace]
        assert "retrieve.lexical" in stages and "retrieve.lexical.de" in stages
    with open_engine(tmp_path / "lib", Translator({}), ()) as engine:  # off: searched as asked only
        plain = engine.retrieve(question, 1)
        assert "Grundschulunterricht" not in " ".join(c.unit.passage for c in plain.candidates)
        assert [t.stage for t in plain.trace if t.stage.startswith("retrieve.")] == ["retrieve.lexical"]


def test_search_languages_is_read_from_the_configuration(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[retrieval]\nsearch_languages = ["auto", "fr"]\n', encoding="utf-8")
    assert load_config(path).retrieval.search_languages == ("auto", "fr")
