"""The per-claim gate: honest paraphrase passes; inverted roles, negation, numbers, names fail."""

from __future__ import annotations

import pytest
from citedesk_engine.answer.answer_adds import added_stems
from citedesk_engine.answer.text import numbers
from citedesk_engine.answer.verify import ClaimVerifier
from citedesk_engine.config import VerifyConfig
from citedesk_engine.export import check_words
from citedesk_engine.testing import HashEmbedder

PASSAGE = (
    "The Treaty of Lisbon was signed by the member states on 13 December 2007. It entered into force "
    "on 1 December 2009. Germany ratified the treaty after its constitutional court approved it. "
    "Napoleon defeated the Austrian army at Austerlitz in 1805."
)


@pytest.fixture
def verifier() -> ClaimVerifier:
    return ClaimVerifier(VerifyConfig())


@pytest.mark.parametrize(
    "claim",
    [
        "The Treaty of Lisbon entered into force on 1 December 2009.",
        "Member states signed the Treaty of Lisbon on 13 December 2007.",
        "Napoleon defeated the Austrian army at Austerlitz.",
        "The Austrian army was defeated by Napoleon at Austerlitz.",
    ],
)
def test_supported(verifier: ClaimVerifier, claim: str) -> None:
    verdict = verifier.check(claim, [PASSAGE])
    assert verdict.supported, verdict.method


@pytest.mark.parametrize(
    ("claim", "guard"),
    [
        ("The Treaty of Lisbon entered into force on 1 December 2010.", "number"),
        ("The Treaty of Lisbon was signed on 13 December 2007 by 30 states.", "number"),
        ("The Treaty of Lisbon did not enter into force on 1 December 2009.", "negation"),
        ("France ratified the treaty after its constitutional court approved it.", "name"),
        ("Austerlitz defeated the Napoleon army at Austrian in 1805.", "roles"),
    ],
)
def test_attacks_are_rejected_by_their_guard(verifier: ClaimVerifier, claim: str, guard: str) -> None:
    verdict = verifier.check(claim, [PASSAGE])
    assert not verdict.supported and guard in verdict.method, verdict.method


def test_absent_facts_fail_alignment(verifier: ClaimVerifier) -> None:
    verdict = verifier.check("The treaty created a European army with shared tanks.", [PASSAGE])
    assert not verdict.supported


def test_comparisons_the_passage_bears_out() -> None:
    verifier = ClaimVerifier(VerifyConfig())
    passage = "Hairspray Live was seen by 8.92 million viewers."
    assert verifier.check("Hairspray Live was seen by more than 8 million viewers.", [passage]).supported
    assert not verifier.check("Hairspray Live was seen by more than 9 million viewers.", [passage]).supported
    assert not verifier.check("Hairspray Live was seen by less than 8 million viewers.", [passage]).supported


def test_answers_are_judged_against_their_question() -> None:
    verifier = ClaimVerifier(VerifyConfig(), lambda: HashEmbedder())
    passage = "These were by Tony Martin, Paul Weston, Bing Crosby and Louis Armstrong."
    question = "Paul Weston and what other artist sang La Vie en rose?"
    assert verifier.check("Tony Martin", [passage], question).supported
    assert not verifier.check("Edith Piaf", [passage], question).supported
    restated = verifier.check("Paul Weston sang La Vie en rose.", [passage], question)
    assert not restated.supported and "adds nothing" in restated.method


def test_yes_opening_a_sentence_answer_is_not_a_name() -> None:
    passage = (
        "Woman's World is an American women's magazine. The Delineator was an American women's magazine."
    )
    question = "Are Woman's World and The Delineator both American women's magazines?"
    claim = "Yes, both Woman's World and The Delineator are American women's magazines."
    verifier, _ = judged(0.9)
    verdict = verifier.check(claim, [passage], question)
    assert "guard: name" not in verdict.method
    # A name the passage lacks is still one.
    wrong = "Yes, both Woman's World and Vogue are American women's magazines."
    verdict = verifier.check(wrong, [passage], question)
    assert not verdict.supported and verdict.method == "guard: name vogu"


def test_a_pair_joined_by_and_offers_options_only_when_both_are_names() -> None:
    passage = "Paris has 2.1 million inhabitants; with its suburbs, 12 million."
    # "Paris and its suburbs" offers no choice: answering "Paris" adds nothing to the question.
    verdict = judged(1.0)[0].check("Paris", [passage], "What is the population of Paris and its suburbs?")
    assert not verdict.supported and "adds nothing" in verdict.method


def test_a_name_made_of_the_questions_words_goes_to_the_verifier() -> None:
    passage = "The Nobel Peace Prize Concert is held at Oslo Spektrum to honour the laureate."
    question = "What concert held at Oslo Spektrum honors the Nobel Peace Prize laureate?"
    verifier, judge = judged(0.9)
    verdict = verifier.check("Nobel Peace Prize Concert", [passage], question)
    assert verdict.supported and "a name the passage gives" in verdict.method
    assert judge.calls == [(passage, "Nobel Peace Prize Concert", question)]
    assert not judged(0.05)[0].check("The Nobel Peace Prize Concert", [passage], question).supported
    # A name the question already says, or one the passage does not hold word for word, adds nothing.
    for answer in ("Oslo Spektrum", "The Nobel Peace Prize", "Concert Spektrum"):
        verdict = judged(1.0)[0].check(answer, [passage], question)
        assert not verdict.supported and "adds nothing" in verdict.method, answer


def test_a_term_of_the_passage_made_of_the_questions_words_goes_to_the_verifier() -> None:
    """Case does not make a name: an identifier or a lower-case term the passage gives is one too."""
    passage = "The helper Rcpp.package.skeleton() creates the skeleton of a new package with Rcpp support."
    question = "Which Rcpp function creates the skeleton of a new package?"
    verdict = judged(0.9)[0].check("Rcpp.package.skeleton", [passage], question)
    assert verdict.supported and "a name the passage gives" in verdict.method


def test_a_method_the_passage_calls_by_a_word_of_the_question_goes_to_the_verifier() -> None:
    # Python's logging reference, in a window session: "exception" was refused as repeating the question.
    passage = (
        "The other arguments are interpreted as for debug(). exception(msg, *args, **kwargs) Logs a "
        "message with level ERROR on this logger."
    )
    question = "Which Logger method logs a message with level ERROR and adds exception information?"
    for answer in ("exception", "exception()"):
        verdict = judged(0.9)[0].check(answer, [passage], question)
        assert verdict.supported and "a name the passage gives" in verdict.method, answer
    assert not judged(0.05)[0].check("exception", [passage], question).supported
    # A word the passage never writes as a call still adds nothing.
    verdict = judged(1.0)[0].check("ERROR", [passage], question)
    assert not verdict.supported and "adds nothing" in verdict.method
    # Flask's configuration reference: a key written as code names what the question describes.
    config = "SECRET_KEY\n\nA secret key that will be used for securely signing the session cookie."
    asked = "Which config key sets the secret key?"
    verdict = judged(0.9)[0].check("SECRET_KEY", [config], asked)
    assert verdict.supported and "a name the passage gives" in verdict.method, verdict.method
    assert not judged(0.9)[0].check("secret key", [config], asked).supported


def test_the_questions_own_name_adds_nothing_even_as_a_possessive() -> None:
    passage = "Maëlle Salmon was funded by a PhD grant of the Robert Koch Institute."
    question = "Who paid for Maëlle Salmon's work on this paper?"
    verdict = judged(1.0)[0].check("Maëlle Salmon", [passage], question)
    assert not verdict.supported and "adds nothing" in verdict.method


def test_best_of_several_passages_decides(verifier: ClaimVerifier) -> None:
    verdict = verifier.check("Napoleon won at Austerlitz in 1805.", ["Unrelated text about bees.", PASSAGE])
    assert verdict.passage in (0, 1)


class ScriptedJudge:
    """A claim verifier that answers a fixed probability and records what it was asked."""

    def __init__(self, support: float) -> None:
        self.support = support
        self.calls: list[tuple[str, str, str]] = []

    def supported(self, evidence: str, claim: str, question: str = "") -> float:
        self.calls.append((evidence, claim, question))
        return self.support


def judged(support: float) -> tuple[ClaimVerifier, ScriptedJudge]:
    judge = ScriptedJudge(support)
    return ClaimVerifier(VerifyConfig(), lambda: HashEmbedder(), lambda: judge), judge


def test_the_verifier_decides_aligned_claims() -> None:
    config = VerifyConfig()
    claim = "Napoleon defeated the Austrian army at Austerlitz."  # every content word in the passage
    accepting, judge = judged(config.min_support_aligned)
    verdict = accepting.check(claim, [PASSAGE])
    assert verdict.supported and verdict.check == "verifier"
    # It reads the sentence that carries the claim's words: trained on one-sentence evidence, it
    # doubts what a longer text states word for word.
    assert judge.calls == [("Napoleon defeated the Austrian army at Austerlitz in 1805.", claim, "")]
    # The same words saying something else ("the thousands live together ..."): the verifier vetoes.
    rejecting, _ = judged(config.min_support_aligned - 0.01)
    verdict = rejecting.check(claim, [PASSAGE])
    assert not verdict.supported and verdict.check == "verifier"


def test_partly_aligned_claims_need_more_of_the_verifier() -> None:
    config = VerifyConfig()
    claim = "Germany approved the treaty once its top court agreed."  # a paraphrase, half the words
    middle = (config.min_support_aligned + config.min_support) / 2
    assert not judged(middle)[0].check(claim, [PASSAGE]).supported
    assert judged(config.min_support)[0].check(claim, [PASSAGE]).supported


@pytest.mark.parametrize(
    "claim",
    [
        "The Treaty of Lisbon entered into force on 1 December 2010.",
        "The Treaty of Lisbon did not enter into force on 1 December 2009.",
        "France ratified the treaty after its constitutional court approved it.",
        "Austerlitz defeated the Napoleon army at Austrian in 1805.",
        "The treaty created a European army with shared tanks.",
    ],
)
def test_guards_and_alignment_veto_whatever_the_verifier_says(claim: str) -> None:
    verifier, judge = judged(1.0)
    verdict = verifier.check(claim, [PASSAGE])
    assert not verdict.supported and verdict.check != "verifier", verdict.method


def test_answers_need_the_verifier_to_accept_them_as_the_answer() -> None:
    passage = "These were by Tony Martin, Paul Weston, Bing Crosby and Louis Armstrong."
    question = "Paul Weston and what other artist sang La Vie en rose?"
    config = VerifyConfig()
    accepting, judge = judged(config.min_support_answer)
    assert accepting.check("Tony Martin", [passage], question).supported
    assert judge.calls == [(passage, "Tony Martin", question)]
    rejecting, _ = judged(config.min_support_answer - 0.01)
    verdict = rejecting.check("Louis Armstrong sang it with Paul Weston.", [passage], question)
    assert not verdict.supported and verdict.method.startswith("verifier")
    # Words missing from the passage still fail before the verifier is asked.
    _, asked = judged(1.0)
    assert not ClaimVerifier(config, None, lambda: asked).check("Edith Piaf", [passage], question).supported
    assert asked.calls == []


def test_a_bare_yes_or_no_is_refused_and_options_of_the_question_go_to_the_verifier() -> None:
    passage = "Mary Doria Russell is an American novelist. James Joyce was an Irish novelist and poet."
    # The verifier scores "yes" and "no" alike (polar.py): a bare one is refused however sure it is,
    # and it is not asked; the reason says why.
    for polar in (
        "Are Mary Doria Russell and James Joyce both novelists?",
        "If you read their books, are Mary Doria Russell and James Joyce both novelists?",
    ):
        for answer in ("yes", "Yes.", "no", "NO"):
            verifier, judge = judged(1.0)
            verdict = verifier.check(answer, [passage], polar)
            assert not verdict.supported and judge.calls == [], answer
            assert verdict.check == "bare yes or no" and "bare yes or no" in verdict.method
    options = "Who was Irish, Mary Doria Russell or James Joyce?"
    verifier, judge = judged(0.9)
    assert verifier.check("James Joyce", [passage], options).supported and judge.calls
    # However long the option's name; "between A and B" offers options too.
    films = "Ring of Fire is a 1991 film. Garlic Is as Good as Ten Mothers is a 1980 film by Les Blank."
    for answer, question in (
        (
            "Garlic Is as Good as Ten Mothers",
            "Which film came first, Ring of Fire or Garlic Is as Good as Ten Mothers?",
        ),
        ("Ring of Fire", "Between Garlic Is as Good as Ten Mothers and Ring of Fire, which is more recent?"),
        ("Ring of Fire", "Between Garlic Is as Good as Ten Mothers and Ring of Fire which is more recent?"),
        ("Ring of Fire", "Which is more recent out of Garlic Is as Good as Ten Mothers and Ring of Fire?"),
        ("Ring of Fire", "As to Garlic Is as Good as Ten Mothers and Ring of Fire, which is more recent?"),
    ):
        verifier, judge = judged(0.9)
        assert verifier.check(answer, [films], question).supported and judge.calls, answer
    # A comparison stated in the question's own words is refused: the verifier cannot judge it; so
    # is one where no comma sets the alternatives apart (the alternative is the name before "or").
    for question in (
        "Which came first, Ring of Fire or Garlic?",
        "Which film came first Ring of Fire or Garlic?",
    ):
        verdict = judged(1.0)[0].check("Ring of Fire came first.", [films], question)
        assert not verdict.supported and "adds nothing" in verdict.method, question
    verifier, judge = judged(0.9)
    assert verifier.check("Ring of Fire", [films], "Which film came first Ring of Fire or Garlic?").supported
    assert judge.calls
    # A sentence that restates the question adds nothing, whatever the verifier would say.
    restated = judged(1.0)[0].check(
        "James Joyce was a novelist and a poet.", [passage], "Was James Joyce a novelist and poet?"
    )
    assert not restated.supported and "adds nothing" in restated.method
    # Naming the question's subject, or restating all of it, picks no option: nothing is added.
    semuren = "The Semuren were various allied groups from Central Asia."
    for answer, question in (
        ("The Semuren", "Who were the Semuren?"),
        ("Semuren were allied groups", "Why were Semuren allied groups?"),
        ("Mary Doria Russell or James Joyce", "Who was Irish, Mary Doria Russell or James Joyce?"),
    ):
        verdict = judged(1.0)[0].check(answer, [semuren + " " + passage], question)
        assert not verdict.supported and "adds nothing" in verdict.method, (answer, verdict)
    # A count the passage states, in words: the verifier reads it with the question.
    bears = "The Bears have won nine NFL Championships, including one Super Bowl."
    verifier, judge = judged(0.9)
    assert (
        verifier.check("one", [bears], "How many Super Bowls have the Bears won?").supported and judge.calls
    )
    # A count written in digits where the passage writes it in words, and the other way round; a
    # number the passage does not state stays out.
    air = "There are four main mechanisms for cooling the air to its dew point. It takes 2 months."
    for answer, question in (("4", "How many mechanisms cool air?"), ("two months", "How long is it?")):
        verifier, judge = judged(0.9)
        assert verifier.check(answer, [air], question).supported and judge.calls, answer
    verdict = judged(1.0)[0].check("5", [air], "How many mechanisms cool air?")
    assert not verdict.supported and "5" in verdict.method


def test_a_negation_beside_a_short_answer_is_not_a_dropped_one() -> None:
    passage = "The Mil Mi-17 is produced in Kazan; it is not the only helicopter at Leh."
    question = "What Russian helicopter is produced in Kazan?"
    assert judged(0.9)[0].check("Mil Mi-17", [passage], question).supported
    # Adding a negation the passage does not make is still vetoed.
    plain = "The Mil Mi-17 is produced in Kazan. It serves at Leh."
    verdict = judged(1.0)[0].check("The Mil Mi-17 is not produced in Kazan.", [plain], question)
    assert not verdict.supported and verdict.check == "guard: negation"


def test_guards_do_not_veto_what_the_passage_says_in_other_forms(verifier: ClaimVerifier) -> None:
    # A comparison with a number word the passage bears out.
    reviews = "At Metacritic the album has an average score of 57 based on six reviews."
    assert (
        verifier.check("The album got less than seven reviews at Metacritic.", [reviews]).check
        != "guard: number"
    )
    assert (
        verifier.check(
            "The album got more than seven reviews.", ["The album was rated in six reviews."]
        ).check
        == "guard: number"
    )
    # A name in another form of itself, and an ordinary word opening the sentence.
    cairo = "Amr Waked was born on April 12, 1973, in Cairo, Egypt."
    assert (
        verifier.check("Amr Waked was born in the Egyptian city of Cairo.", [cairo]).method != "guard: name"
    )
    grau = "RPG-7: The weapon has the GRAU index (Russian armed forces index) 6G3."
    verdict = verifier.check(
        "According to the Russian armed forces index, the RPG-7 has the GRAU index 6G3.", [grau]
    )
    assert verdict.check != "guard: name", verdict.method
    # Two names in the other order because a title line comes first: not an inversion of roles.
    naka = "Phantasy Star Online: Naka had wanted the game to sell one million copies."
    verdict = verifier.check(
        "Naka wanted the game, Phantasy Star Online, to sell one million copies.", [naka]
    )
    assert verdict.check != "guard: roles", verdict.method


def test_an_entry_of_a_reference_list_supports_no_claim() -> None:
    """The real-document set: "Yes, SaTScan is an R package." stood on the bibliography entry of an
    R package interfacing with SaTScan; the paper says SaTScan is not one."""
    references = (
        "Knoth S (2016). spc: Statistical Process Control. R package version 0.5.3. "
        "Kleinman K (2015). rsatscan: Tools, Classes, and Methods for Interfacing with SaTScan "
        "Stand-Alone Software. R package version 0.3.9200."
    )
    verifier, judge = judged(1.0)
    verdict = verifier.check("SaTScan is an R package.", [references])
    assert not verdict.supported and verdict.check == "guard: reference"
    body = "Another tool is rsatscan, an R package for interfacing with SaTScan (Kleinman 2015)."
    assert judged(1.0)[0].check("Rsatscan is an R package for interfacing with SaTScan.", [body]).supported


def test_an_entrys_journal_volume_and_pages_answer_nothing_about_the_paper_citing_it() -> None:
    # The real-document set: "In which journal was this Rcpp article published?" (The American
    # Statistician) was answered "Journal of Statistical Software", from a reference on page 8.
    tail = (
        "“Rcpp: Seamless R and C++ Integration.” Journal of Statistical Software, 40(8), 1–18. doi: "
        "10.18637/jss.v040.i08. URL https://doi.org/10.18637/jss.v040.i08. Eddelbuettel D, François R "
        "(2022a). Frequently Asked Questions About Rcpp. Vignette included in R package Rcpp."
    )
    question = "In which journal was this Rcpp article published?"
    # the unit as the ingest cut it (the entry's authors ended the unit before), and the whole entry
    for references in (tail, "Eddelbuettel D, François R (2011). " + tail):
        verdict = judged(1.0)[0].check("Journal of Statistical Software.", [references], question)
        assert not verdict.supported and verdict.check == "guard: reference", verdict.method
    # the same words in the paper's own prose, with a volume, are no entry
    prose = "Rcpp was first described in the Journal of Statistical Software, 40(8), in 2011."
    assert judged(1.0)[0].check("Journal of Statistical Software", [prose], question).supported


@pytest.mark.parametrize(
    ("passage", "claim", "guard"),
    [
        # participants that are common nouns or lower-case names, swapped around their verb
        (
            "The buyer shall reimburse the seller for shipping costs.",
            "The seller shall reimburse the buyer for shipping costs.",
            "guard: exchanged",
        ),
        (
            "Methotrexate reduces the absorption of aspirin.",
            "Aspirin reduces the absorption of methotrexate.",
            "guard: exchanged",
        ),
        # two numbers of the passage exchanged between their slots
        (
            "Site one recorded 18 cases and site two recorded 7 cases.",
            "Site one recorded 7 cases and site two recorded 18 cases.",
            "guard: exchanged",
        ),
        # a comparison inverted
        ("Alloy A is harder than alloy B.", "Alloy B is harder than alloy A.", "guard: exchanged"),
        ("Alloy A is harder than alloy B.", "Alloy A is softer than alloy B.", "guard: opposite"),
        # two spans of any length exchanged around their verb
        (
            "CNN respects the rights of all copyright holders.",
            "The rights of all copyright holders respects CNN.",
            "guard: exchanged",
        ),
        # a number moved past a word or two, a name swapped in from elsewhere in the passage
        (
            "Patients diagnosed from 2004 to 2009 were included.",
            "Patients diagnosed from 2009 to 2004 were included.",
            "guard: exchanged",
        ),
        (
            "Microsoft must make updates available. Updates to the Services are announced.",
            "Services must make updates available.",
            "guard: replaced",
        ),
        # numbers of a "respectively" list exchanged: the order pairs them with the other list
        (
            "Female sex was associated with a 43% and 23% lower risk of organ failure and infection, "
            "respectively.",
            "Female sex was associated with a 23% and 43% lower risk of organ failure and infection, "
            "respectively.",
            "guard: number slot",
        ),
        # a number put in the slot of another, the tokens apart ("6.5" is not "6" and "5")
        (
            "APT can use proxy servers such as squid (see Section 6.5) as described in apt.conf(5).",
            "APT can use proxy servers such as squid (see Section 5) as described in apt.conf(6.5).",
            "guard: number slot",
        ),
        (
            "The company reported that its reserves amount to £1.6bn, and 1,000 jobs were added.",
            "The company reported that its reserves amount to £1bn, and 1,000 jobs were added.",
            "guard: number slot",
        ),
        # a common word of the passage swapped in, one for one; a name from the sentence before
        (
            "Coronary atherosclerotic burden is excessive in diabetic patients. Diabetes mellitus is an "
            "independent predictor of death.",
            "Mellitus atherosclerotic burden is excessive in diabetic patients.",
            "guard: replaced",
        ),
        (
            'Mark Linsey, director of BBC Television, said: "We are sorry." Daniels, whose real name is '
            "Newton Edward Daniels, developed his magic skills in working men's clubs.",
            "BBC, whose real name is Newton Edward Daniels, developed his magic skills in working men's "
            "clubs.",
            "guard: replaced",
        ),
        # another place in an order
        (
            "He said he had first used the line at a club in Yorkshire.",
            "He said he had second used the line at a club in Yorkshire.",
            "guard: ordinal",
        ),
        # a negation dropped inside a longer construction
        (
            "Patients must not be discharged without a follow-up appointment.",
            "Patients must be discharged without a follow-up appointment.",
            "guard: negation",
        ),
    ],
)
def test_a_claim_that_reorders_or_drops_the_passages_own_words_is_refused(
    passage: str, claim: str, guard: str
) -> None:
    """Issue 20's attacks: every word of the claim is the passage's, so alignment is 1.00 and the
    verifier passed them (0.70-0.86)."""
    verifier, _ = judged(1.0)
    verdict = verifier.check(claim, [passage])
    assert not verdict.supported and verdict.check == guard
    assert verifier.check(passage, [passage]).supported  # the passage's own sentence still stands


@pytest.mark.parametrize(
    ("passage", "claim", "supported"),
    [
        # the real-document set's q034: other words than the passage's, the comparison inverted
        (
            "Monitoring with boda is substantially slower than using the Farrington procedures.",
            "Yes, boda is quicker to run than the Farrington procedures.",
            False,
        ),
        (
            "Tenants found the new form easier to use than the old one.",
            "The new form is harder to use than the old one.",
            False,
        ),
        (
            "The firm had more than 8 million users in 2020.",
            "In 2020 the firm counted fewer than 8 million users.",
            False,
        ),
        # the same comparison read from its other side says the same
        (
            "Monitoring with boda is substantially slower than using the Farrington procedures.",
            "The Farrington procedures are quicker to run than boda.",
            True,
        ),
        ("Alloy A is harder than alloy B.", "Alloy B is softer than alloy A.", True),
        # another bound is another claim, for the verifier: not an inversion
        (
            "The video has accumulated more than 300 million views.",
            "The video has garnered less than 305 million views.",
            None,
        ),
        # a negated comparison is the negation guard's
        (
            "The new method is not slower than the old one.",
            "The new method is quicker than the old one.",
            None,
        ),
    ],
)
def test_a_comparison_turned_the_other_way_in_other_words_is_refused(
    passage: str, claim: str, supported: bool | None
) -> None:
    verdict = judged(1.0)[0].check(claim, [passage])
    if supported is None:
        assert verdict.check != "guard: opposite", verdict.method
    else:
        assert verdict.supported is supported, verdict.method
        assert supported or verdict.check == "guard: opposite"


def test_a_passage_saying_the_opposite_outweighs_one_that_partly_says_the_claim() -> None:
    """q034 in the real run: refused against the passage saying "substantially slower", the claim was
    then accepted on another passage about boda (aligned 0.60) and shown as verified."""
    slower = "Still, monitoring with boda is substantially slower than using the Farrington procedures."
    merits = (
        "The boda method is a step towards Bayesian thinking, and it runs with the Farrington procedures."
    )
    claim = "Boda is quicker to run than the Farrington procedures."
    verifier = judged(1.0)[0]
    assert verifier.check(claim, [merits]).supported  # alone, the partial passage passes it
    for passages in ([slower, merits], [merits, slower]):
        verdict = verifier.check(claim, passages)
        assert not verdict.supported and verdict.check == "guard: opposite", verdict.method


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        # a reordering that says the same: a verb and its noun are different words
        (
            "The lease of another A330-200 was announced in December 2016.",
            "It was announced that another A330-200 was leased.",
        ),
        # a year moved to the front
        (
            "The harbour handled 4.2 million containers in 2023.",
            "In 2023 the harbour handled 4.2 million containers.",
        ),
    ],
)
def test_a_claim_that_words_the_passage_otherwise_is_not_taken_for_a_swap(passage: str, claim: str) -> None:
    verifier, _ = judged(1.0)
    assert verifier.check(claim, [passage]).supported


def test_a_date_answered_from_a_csv_row_of_dates_is_checked_against_its_row() -> None:
    """The second real session: "2015-04-26" for Debian 8's release was refused ("guard: number 26"):
    the number pattern read "04,2015" of the row as the thousands-separated 42015."""
    row = "version,codename,series,created,release,eol\n8,Jessie,jessie,2013-05-04,2015-04-26,2018-06-17"
    question = "When was Debian 8 Jessie released?"
    verifier, judge = judged(0.9)
    assert verifier.check("2015-04-26", [row], question).supported and judge.calls
    assert not judged(0.9)[0].check("2015-04-27", [row], question).supported
    assert numbers("It cost 1,200 dollars") == {"1200"}


def test_a_version_number_is_one_number() -> None:
    # httpx's changelog, "Drop support for Python 3.7. (#2813)": "3.7.0" was read as "3.7" and passed.
    assert numbers("Python 3.7.0 and httpx 0.25.0 on Debian 12.3.3.") == {"3.7.0", "0.25.0", "12.3.3"}
    assert numbers("Drop support for Python 3.7. (#2813)") == {"3.7", "2813"}
    passage = "## 0.25.0 (11th September, 2023)\n\n### Removed\n\n* Drop support for Python 3.7. (#2813)"
    question = "Which Python version did httpx 0.25.0 drop support for?"
    verifier, _judge = judged(0.9)
    assert verifier.check("3.7", [passage], question).supported
    assert not judged(0.9)[0].check("3.7.0", [passage], question).supported


@pytest.mark.parametrize(
    ("passage", "claim"),
    [
        (
            "In 2019, the harbour handled 4.2 million containers.",
            "The harbour handled 4.2 million containers in 2019.",
        ),
        ("Cats and dogs are common pets in Europe.", "Dogs and cats are common pets in Europe."),
        ("However, the survey was repeated in May.", "But the survey was repeated in May."),
        ("Member states signed the treaty in 2007.", "The treaty was signed by member states in 2007."),
        # the passive moves the subject, with its negation, to the other end
        (
            "None of the six dimensions displayed a significant difference between the groups.",
            "A significant difference between the groups was displayed by none of the six dimensions.",
        ),
        (
            "Flight nurses performed three intubations in each of the two study environments.",
            "Three intubations were performed by flight nurses in each of the two study environments.",
        ),
        # a description or a pronoun replaced by the name the passage gives it
        (
            "The score of Aliens was written by James Horner. The famous action ostinato from Aliens is "
            "originally from Wolfen.",
            "James Horner's action ostinato from Aliens is originally from Wolfen.",
        ),
        # a number at another place in its sentence
        ("In 2019, sales grew 5% in Spain.", "Sales grew 5% in Spain in 2019."),
    ],
)
def test_honest_rewrites_of_the_passages_own_words_stand(passage: str, claim: str) -> None:
    verifier, _ = judged(1.0)
    verdict = verifier.check(claim, [passage])
    assert verdict.supported, verdict.method


class RecordingJudge:
    """Accepts everything and records how it was asked: with the question (a short answer) or not."""

    def __init__(self) -> None:
        self.questions: list[str] = []

    def supported(self, evidence: str, claim: str, question: str = "") -> float:
        self.questions.append(question)
        return 1.0


def test_a_date_and_time_is_a_short_answer_read_with_its_question() -> None:
    # "2023-02-04 11:59:01 UTC" (the build time of a manual) answered "When was Debian 10 released?"
    # and was read as a seven-word sentence: fully aligned, it needed little of the verifier.
    judge = RecordingJudge()
    verifier = ClaimVerifier(VerifyConfig(), None, lambda: judge)
    question = "When was Debian 10 released?"
    passage = "This document was built on 2023-02-04 11:59:01 UTC for Debian 10 and later."
    verdict = verifier.check("2023-02-04 11:59:01 UTC.", [passage], question)
    assert verdict.method.startswith("the passage's answer"), verdict.method
    assert judge.questions == [question]


def test_not_only_is_no_negation_but_a_not_of_its_own_still_is() -> None:
    from citedesk_engine.answer.text import negated

    assert not negated("This not only compiles, links and loads the code.")
    assert negated("This does not compile the code.")
    assert negated("It is not just slow, it does not compile.")
    verifier = ClaimVerifier(VerifyConfig())
    passage = "The script not only compiles the code but also loads it into the session."
    assert "negation" not in verifier.check("The script compiles the code.", [passage]).method


@pytest.mark.parametrize(
    ("passage", "question", "wrong", "right"),
    [
        # the real session: the other number of the sentence, the count of the ratings
        (
            "We collected intensity ratings on each of our candidate lexical features from ten independent "
            "human raters (for a total of 90,000+ ratings).",
            "How many independent human raters rated each candidate lexical feature?",
            "90,000+",
            "ten",
        ),
        # a count of something else in the next sentence; the question's verb ends what is counted
        (
            "The trial enrolled 412 patients at 9 hospitals. Of the patients, 37 withdrew.",
            "How many hospitals were involved in the trial?",
            "412",
            "9",
        ),
        (
            "The estate covers 200 acres and employs 14 gardeners.",
            "How many gardeners does the estate employ?",
            "200",
            "14",
        ),
    ],
)
def test_a_count_the_passage_gives_for_something_else_is_refused(
    passage: str, question: str, wrong: str, right: str
) -> None:
    verifier, _ = judged(1.0)
    verdict = verifier.check(wrong, [passage], question)
    assert not verdict.supported and verdict.check == "guard: count", verdict.method
    assert verifier.check(right, [passage], question).supported


def test_a_count_is_left_to_the_verifier_when_the_passage_counts_it_twice_or_not_at_all() -> None:
    verifier, judge = judged(1.0)
    twice = "The club had 25 members in 2019 and 30 members in 2020."
    assert verifier.check("30", [twice], "How many members did the club have in 2020?").supported
    unnamed = "Lisbon has 545,000 inhabitants and 24 parishes."
    assert verifier.check("545,000", [unnamed], "How many people live in Lisbon?").supported
    assert len(judge.calls) == 2  # both read by the verifier, neither refused by the guard


def test_a_number_is_no_answer_to_where_or_who() -> None:
    passage = (
        "Ratings were obtained using Amazon Mechanical Turk. We collected intensity ratings from ten "
        "independent human raters (for a total of 90,000+ ratings)."
    )
    verifier, _ = judged(1.0)
    question = "Where were the intensity ratings obtained?"
    verdict = verifier.check("90,000+ ratings", [passage], question)
    assert not verdict.supported and verdict.check == "guard: answer type", verdict.method
    assert verifier.check("Amazon Mechanical Turk", [passage], question).supported
    # a number in a place or a name is no bare count
    assert verifier.check(
        "5 Main Street", ["The office is at 5 Main Street."], "Where is the office?"
    ).supported
    assert verifier.check("10", [passage], "How many raters rated each feature?").supported


def test_an_empty_value_the_passage_gives_a_setting_is_an_answer() -> None:
    # Flask's configuration reference: "None" was refused as an empty claim.
    passage = (
        "MAX_CONTENT_LENGTH\n\nDon't read more than this many bytes from the incoming request data. "
        "Default: None"
    )
    question = "What is the default value of MAX_CONTENT_LENGTH?"
    for claim in ("None", "`None`", "None."):
        verdict = judged(0.9)[0].check(claim, [passage], question)
        assert verdict.supported and "a value the passage gives" in verdict.method, (claim, verdict.method)
    assert not judged(0.05)[0].check("None", [passage], question).supported
    # the English word is no value, and a value the passage never gives is none of its answers
    english = "None of the requests was read in full."
    assert not judged(0.9)[0].check("None", [english], "How many requests were read in full?").supported
    assert not judged(0.9)[0].check("null", [passage], question).supported


# Python 3.11's argparse tutorial (PSF-2.0), "Introducing Optional arguments".
OPTIONAL = (
    "To show that the option is actually optional, there is no error when running the program without "
    "it. Note that by default, if an optional argument isn't used, the relevant variable, in this case "
    "args.verbosity, is given None as a value, which is the reason it fails the truth test of the if "
    "statement.\n\nThe option is now more of a flag than something that requires a value. We even "
    "changed the name of the option to match that idea. Note that we now specify a new keyword, action, "
    'and give it the value "store_true". This means that, if the option is specified, assign the value '
    "True to args.verbose. Not specifying it implies False."
)


def test_an_empty_value_the_passage_gives_in_prose_is_an_answer() -> None:
    # a window session: "None" was refused as "an empty claim" (the tutorial writes "is given None as
    # a value"), "True" as repeating the question (store_true's "true" counted as the question's)
    question = "What value does an optional argument get if it is not used on the command line?"
    verdict = judged(0.9)[0].check("None", [OPTIONAL], question)
    assert verdict.supported and "a value the passage gives" in verdict.method, verdict.method
    assert judged(0.9)[0].check("None", ["It gets the None value."], question).supported
    english = judged(0.9)[0].check("None", ["None of the options is required."], question)
    assert not english.supported
    assert check_words(english.method) == "it has no word to check, and the passage gives no such value"


def test_a_word_of_a_code_name_in_the_question_is_not_the_question_s_word_alone() -> None:
    question = (
        "What value is assigned to args.verbose when the --verbose option "
        "with action store_true is specified?"
    )
    assert added_stems("True", question) == {"true"}
    assert added_stems("store_true", question) == set()
    verdict = judged(0.9)[0].check("True", [OPTIONAL], question)
    assert verdict.supported and verdict.check == "verifier", verdict.method
    echoed = judged(0.9)[0].check("store_true", [OPTIONAL], "What does action store_true do?")
    assert not echoed.supported and echoed.check == "adds nothing to the question", echoed.method


def test_a_value_is_no_answer_to_what_something_does_or_why() -> None:
    """Python's json reference: "What does sort_keys do?" - "True" was shown as verified (verifier
    0.97) from an example that calls json.dumps with sort_keys=True."""
    passage = (
        "With sort_keys=True (default: False), the output of dictionaries is sorted by key. "
        "The release was delayed by 3 weeks because the tests failed."
    )
    verifier, _ = judged(1.0)
    for claim, question in (
        ("True", "What does sort_keys do?"),
        ("3", "Why was the release delayed?"),
        ("False", "What does the sort_keys parameter mean?"),
    ):
        verdict = verifier.check(claim, [passage], question)
        assert not verdict.supported and verdict.check == "guard: answer type", (claim, verdict.method)
    assert check_words(verdict.method) == "a value does not say what something does, or why"
    assert verifier.check("False", [passage], "What is the default of sort_keys?").supported
    assert verifier.check("3 weeks", [passage], "How long was the release delayed?").supported
    assert verifier.check(
        "the output of dictionaries is sorted by key", [passage], "What does sort_keys do?"
    ).supported


class _Believing:
    """A claim verifier that reads every window as supporting the claim."""

    def supported(self, evidence: str, claim: str, question: str = "") -> float:
        return 0.9


def test_the_passage_that_says_the_claim_whole_decides_over_an_earlier_partial_one() -> None:
    verifier = ClaimVerifier(VerifyConfig(), judge=lambda: _Believing())
    claim = "The museum keeps a garden and a library."
    partial = "The museum keeps a garden."
    whole = "Since its opening the museum keeps a garden and a library."
    verdict = verifier.check(claim, [partial, whole])
    assert verdict.supported and verdict.passage == 1 and verdict.score >= 0.99
    alone = verifier.check(claim, [partial])
    assert alone.supported and alone.passage == 0 and alone.score < 0.99


# Python 3.11's logging HOWTO (PSF-2.0), "Configuring Logging for a Library": two sentences hold the
# same share of "a library should (not) attach its own handlers to its loggers"; the second says it.
LIBRARY_LOGGING = (
    "If an organisation produces a number of libraries, then the logger name specified can be "
    "‘orgname.foo’ rather than just ‘foo’. Note It is strongly advised that you do not log to the root "
    "logger in your library. Logging to the root logger will make it difficult or impossible for the "
    "application developer to configure the logging verbosity or handlers of your library as they wish. "
    "Note It is strongly advised that you do not add any handlers other than NullHandler to your "
    "library’s loggers."
)


def test_of_windows_holding_as_much_of_the_claim_the_one_most_about_it_decides() -> None:
    from factories import believing_gate

    gate = believing_gate()
    dropped = gate.check("A library should attach its own handlers to its loggers.", [LIBRARY_LOGGING])
    assert not dropped.supported
    # the negation, not the supposition before it that shares two of the claim's four words
    assert dropped.check == "guard: negation", dropped
    kept = gate.check("A library should not attach its own handlers to its loggers.", [LIBRARY_LOGGING])
    assert kept.supported, kept


def test_a_symbol_alone_is_an_answer_where_the_passage_quotes_it() -> None:
    """R's manual, "In R, what character starts a comment?": the model wrote "#", and it was taken for
    no answer at all (a pointer to passages), refused as "the model found no answer"."""
    from citedesk_engine.answer.claims import split_claims
    from citedesk_engine.answer.declined import declines

    passage = "Comments can be put almost anywhere, starting with a hashmark ('#'), to the end of the line."
    question = "In R, what character starts a comment?"
    assert not declines("#") and declines("Passage 2") and declines("[1]")
    assert [c.text for c in split_claims("# [1]", 3)] == ["#"] and split_claims(". [1]", 3) == []
    verifier, judge = judged(0.9)
    verdict = verifier.check("#", [passage], question)
    assert verdict.supported and "a symbol the passage quotes" in verdict.method and judge.calls
    assert not judged(0.9)[0].check("%%", [passage], question).supported  # a symbol it never writes


BISECT = (
    "bisect.bisect(a, x, lo=0, hi=len(a), *, key=None)\n\n"
    "Similar to bisect_left(), but returns an insertion point which comes after (to the right of) any "
    "existing entries of x in a."
)
BISECT_LEFT = (
    "bisect.bisect_left(a, x, lo=0, hi=len(a), *, key=None)\n\n"
    "Locate the insertion point for x in a to maintain sorted order. If x is already present in a, the "
    "insertion point will be before (to the left of) any existing entries."
)


@pytest.mark.parametrize(
    "claim",
    [
        "The insertion point is before (to the left of) any existing entries.",
        "before (to the left of) any existing entries.",
    ],
)
def test_a_word_turned_into_its_opposite_between_words_the_passage_writes_is_refused(claim: str) -> None:
    """Python's bisect page (a window session): bisect_left's answer, cited to bisect's entry that
    says "after (to the right of)", was shown as verified (aligned 1.00, verifier 0.73)."""
    question = "Where is the insertion point of bisect_left if x is already present in a?"
    verifier = judged(1.0)[0]
    verdict = verifier.check(claim, [BISECT], question)
    assert not verdict.supported and verdict.check == "guard: opposite", verdict.method
    both = verifier.check(claim, [BISECT, BISECT_LEFT], question)
    assert both.supported and both.passage == 1, both.method  # the passage saying it is cited
    right = "The insertion point comes after (to the right of) any existing entries."
    assert verifier.check(right, [BISECT], "Where is the insertion point of bisect?").supported


def test_a_code_name_of_the_question_written_apart_adds_nothing() -> None:
    """A newcomer's check on flexmix's bootstrapping vignette: "keep weights." was shown as verified
    for "What does the argument keep_weights of boot() allow to indicate?" - the name given back."""
    question = "What does the argument keep_weights of boot() allow to indicate?"
    assert added_stems("keep weights.", question) == set()
    assert added_stems("whether the weights should be kept", question) >= {"kept", "whether"}
    # One part of a name is an answer of its own: "True" for action store_true.
    assert added_stems("True", "What is args.verbose set to with action store_true?") == {"true"}


def test_an_answer_that_only_points_at_another_sentence_is_refused() -> None:
    """A newcomer's window session on the Matrix package's introduction: "For this reason." was shown
    as verified (0.88) for "Why is the CsparseMatrix class the principal class for sparse matrices?"."""
    from citedesk_engine.answer.answer_adds import points_elsewhere

    passage = (
        "There are certain advantages to csc in systems like R, Octave and Matlab where dense matrices are "
        "stored in column-major order. For this reason, the CsparseMatrix class and subclasses are the "
        "principal classes for sparse matrices in the Matrix package."
    )
    question = "Why is the CsparseMatrix class the principal class for sparse matrices in the Matrix package?"
    verdict = ClaimVerifier(VerifyConfig()).check("For this reason.", [passage], question)
    assert not verdict.supported and verdict.check == "guard: pointer"
    assert check_words(verdict.method) == "it points at what another sentence says and says nothing itself"
    assert all(points_elsewhere(t) for t in ("Therefore.", "In this way", "for these reasons"))
    # A demonstrative alone may be the answer (JavaScript's "this"); a reason said is no pointer.
    assert not any(points_elsewhere(t) for t in ("this", "that", "because dense matrices are column-major"))
