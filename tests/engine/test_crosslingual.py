"""Claims checked in the language of the passage they cite (answer/crosslingual.py), through the
flow with fakes: translated, checked and highlighted in the passage's language, said in the method
and the trace; a translation that drops a negation is caught; German nouns are no names."""

from __future__ import annotations

from citedesk_engine.answer.crosslingual import ClaimLanguages, InLanguage
from citedesk_engine.answer.flow import AnswerFlow
from citedesk_engine.answer.verify import ClaimVerifier
from citedesk_engine.config import AnswerConfig, VerifyConfig
from citedesk_engine.testing import HashEmbedder
from citedesk_engine.types import Candidate, Decision, EvidenceUnit, Retrieval

PASSAGE = "Jeder hat das Recht auf Bildung. Der Grundschulunterricht ist obligatorisch und unentgeltlich."
QUESTION = "Is elementary schooling free of charge?"


class Fixed:
    """A generator that always gives the same reply."""

    def __init__(self, reply: str) -> None:
        self.reply = reply

    def generate(self, messages, *, max_tokens, on_token=None, cancel=None):  # type: ignore[no-untyped-def]
        return self.reply


def make_flow(
    answer: str, translations: dict[tuple[str, str], str]
) -> tuple[AnswerFlow, list[tuple[str, str]]]:
    asked: list[tuple[str, str]] = []
    unit = EvidenceUnit("v-00000", "/docs/rechte.txt", "v", 0, PASSAGE, 0, len(PASSAGE))
    embedder = HashEmbedder()

    def translate(text: str, language: str, cancel: object) -> str | None:
        asked.append((text, language))
        return translations.get((text, language))

    def retrieve(query: str, k: int, question: str, variants: dict[str, str]) -> Retrieval:
        return Retrieval(query, (Candidate(unit, {}, {}, 1.0, 0.95),), ())

    flow = AnswerFlow(
        retrieve=retrieve,
        embed_query=lambda text: embedder.embed([text])[0],
        stored_vectors=lambda ids: {i: embedder.embed([PASSAGE])[0] for i in ids},
        generator=lambda: Fixed(answer),
        verifier=ClaimVerifier(VerifyConfig()),
        config=AnswerConfig(),
        tiers=dict,
        paths=dict,
        library_empty=lambda: False,
        calibrated_rerank=True,
        identify_language=lambda text: ("en", 0.95),
        document_languages=lambda: {"/docs/rechte.txt": "de"},
        translate=translate,
    )
    return flow, asked


def test_a_claim_citing_a_german_passage_is_checked_in_german_and_highlighted_there() -> None:
    claim = "Elementary schooling is compulsory and free of charge."
    german = "Der Grundschulunterricht ist obligatorisch und unentgeltlich."
    flow, asked = make_flow(
        f"{claim} [1]",
        {(claim, "de"): german, (QUESTION, "de"): "Ist der Grundschulunterricht unentgeltlich?"},
    )
    answer = flow.ask(QUESTION, k=1)
    assert answer.decision is Decision.ANSWERED, answer.refusal
    (checked,) = answer.claims
    assert checked.text == claim  # shown in the asker's language
    assert checked.method.startswith(f"checked in German as “{german}”: ")
    assert (claim, "de") in asked
    (unit_id, start, end), *_ = checked.evidence
    assert unit_id == "v-00000" and "Grundschulunterricht" in PASSAGE[start:end]
    verify = next(t for t in answer.trace if t.stage == "verify")
    (how,) = verify.details["claims"]
    assert how["language"] == "de"
    assert "names (every noun is capitalised)" in how["checks_that_could_not_read_it"]
    assert "roles (participants swapped)" in how["checks_that_could_not_read_it"]


def test_a_translation_that_drops_the_negation_is_caught_in_german() -> None:
    claim = "Elementary schooling is not free of charge."
    flow, _ = make_flow(f"{claim} [1]", {(claim, "de"): "Der Grundschulunterricht ist nicht unentgeltlich."})
    answer = flow.ask(QUESTION, k=1)
    assert answer.decision is Decision.REFUSED
    (checked,) = answer.claims
    assert not checked.supported and "guard: negation" in checked.method


def test_a_reply_that_is_no_translation_refuses_the_claim_and_says_why() -> None:
    flow, _ = make_flow("Elementary schooling is free of charge. [1]", {})
    answer = flow.ask(QUESTION, k=1)
    assert answer.decision is Decision.REFUSED
    (checked,) = answer.claims
    assert not checked.supported and "could not be put into German" in checked.method


def test_claims_in_the_passage_language_or_of_unknown_language_are_not_translated() -> None:
    calls: list[str] = []

    def translate(text: str, language: str, cancel: object) -> str | None:
        calls.append(language)
        return "übersetzt"

    languages = ClaimLanguages("de", {"a": "de", "b": "und"}, translate, {})
    assert languages.claim_in("Jeder hat das Recht.", "", "de") == InLanguage(
        "de", "Jeder hat das Recht.", "", False
    )
    assert languages.claim_in("Everyone has the right.", "", "und").translated is False
    unknown_asker = ClaimLanguages("und", {}, translate, {})
    assert unknown_asker.claim_in("Everyone has the right.", "", "de").translated is False
    assert calls == []
    english = ClaimLanguages("en", {}, translate, {"de": "Wer hat das Recht?"})
    how = english.claim_in("Everyone.", "Who has the right?", "de")
    assert how == InLanguage("de", "übersetzt", "Wer hat das Recht?", True) and calls == ["de"]


def test_the_checks_that_cannot_read_a_language_are_listed() -> None:
    assert InLanguage("en", "x", "", False).unread_checks() == []
    french = InLanguage("fr", "x", "", True).unread_checks()
    assert "negation words" not in french and "names (every noun is capitalised)" not in french
    assert "yes/no answers" not in french
    japanese = InLanguage("ja", "x", "", True).unread_checks()
    assert "negation words" in japanese and "yes/no answers" in japanese
    assert any(check.startswith("the claim verifier") for check in french)


def test_a_dropped_negation_is_caught_in_german_and_french() -> None:
    verifier = ClaimVerifier(VerifyConfig())
    german = verifier.check(
        "Patienten dürfen ohne Nachsorgetermin entlassen werden.",
        ["Patienten dürfen nicht ohne Nachsorgetermin entlassen werden."],
    )
    french = verifier.check(
        "Les patients peuvent sortir sans rendez-vous de suivi.",
        ["Les patients ne peuvent pas sortir sans rendez-vous de suivi."],
    )
    assert german.method == french.method == "guard: negation"


def test_similarity_decides_relevance_only_for_the_embedder_its_thresholds_were_chosen_for() -> None:
    import numpy as np
    from citedesk_engine.answer.gates import relevance_gate
    from citedesk_engine.config import AnswerConfig

    off_topic = EvidenceUnit("v-0", "d", "v", 0, "Die Eingabeaufforderung der Shell zeigt den Pfad.", 0, 10)
    vector = np.ones(4, dtype=np.float32) / 2.0  # cosine 1.0 with itself: "very similar"
    candidates = [Candidate(off_topic, {}, {}, 1.0)]
    config = AnswerConfig()
    judged, refusal = relevance_gate(
        "What is the speed of light?", vector, candidates, lambda ids: {"v-0": vector}, config
    )
    assert refusal is None and judged[0].relevant  # the English embedder's threshold trusts it
    judged, refusal = relevance_gate(
        "What is the speed of light?",
        vector,
        candidates,
        lambda ids: {"v-0": vector},
        config,
        calibrated_similarity=False,
    )
    assert refusal is not None and not judged[0].relevant
    assert refusal.details["high_similarity"] is None  # said as not used


def test_a_tables_form_words_are_not_asked_of_its_rows() -> None:
    import numpy as np
    from citedesk_engine.answer.gates import relevance_gate
    from citedesk_engine.config import AnswerConfig

    question = "What were the depth and magnitude of the first earthquake listed in the quakes sheet?"
    rows = "lat | long | depth | mag | stations\n-20.42 | 181.62 | 562 | 4.8 | 41"
    table = EvidenceUnit(
        "v-0",
        "d",
        "v",
        0,
        rows,
        0,
        len(rows),
        context="lat | long | depth | mag | stations",
        section="quakes",
    )
    prose = EvidenceUnit("v-1", "d", "v", 1, rows.replace("\n", " "), 0, len(rows), section="quakes")
    vector = np.zeros(4, dtype=np.float32)
    vector[0] = 0.5  # similarity 0.5 with itself: close, not very close
    vector[1] = 0.5
    candidates = [Candidate(table, {}, {}, 1.0), Candidate(prose, {}, {}, 1.0)]
    judged, refusal = relevance_gate(
        question, vector, candidates, lambda ids: dict.fromkeys(ids, vector), AnswerConfig()
    )
    assert refusal is None
    # "depth", "quakes" (its sheet) and "magnitude" (column "mag") of the 4 words not about the
    # table's form; prose is judged on all 7, and abbreviates nothing
    assert judged[0].coverage == 0.75 and judged[0].relevant
    assert judged[1].coverage < AnswerConfig().min_coverage and not judged[1].relevant
    # A window session's wording: only "quakes" written out, "magnitude" abbreviated by the header
    asked = "In the quakes sheet, what is the magnitude of the first earthquake?"
    judged, refusal = relevance_gate(
        asked, vector, candidates, lambda ids: dict.fromkeys(ids, vector), AnswerConfig()
    )
    assert refusal is None and judged[0].coverage == 2 / 3 and judged[0].relevant


def test_a_header_abbreviates_a_question_word_two_letters_longer() -> None:
    from citedesk_engine.answer.gates import abbreviated
    from citedesk_engine.answer.text import content_stems

    header = "lat | long | depth | mag | stations | eol-lts"
    asked = set(content_stems("The latitude, magnitude and longitude of a late quake; LTS end?"))
    found = abbreviated(asked, header)
    assert {"latitud", "magnitud", "longitud"} <= found
    assert not found & {"late", "quak", "end", "lts"}  # "late": one letter more; "lts": the word itself
