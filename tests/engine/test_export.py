"""Exported answers and conversations: each citation's supporting words quoted with its page, refusals
and stopped answers said as such, the cited documents listed once, and `citedesk export` on a library."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from citedesk_engine import Engine, cli
from citedesk_engine.answer.cautions import UNSURE
from citedesk_engine.export import (
    answer_json,
    answer_markdown,
    bibliography,
    conversation_json,
    conversation_markdown,
    supporting_words,
    verified_words,
)
from citedesk_engine.serialize import answer_from_plain, plain
from citedesk_engine.testing import HashEmbedder
from citedesk_engine.types import Answer, Claim, Decision, Refusal, SourceRef, Stage

PASSAGE = "Members may borrow up to twelve books at a time. Late returns cost ten cents a day."


def source(
    unit: str = "u1", path: str = "/docs/rules.pdf", page: int | None = 4, start: int = 100
) -> SourceRef:
    return SourceRef(unit, "doc-" + Path(path).stem, path, page, (), start, start + len(PASSAGE), PASSAGE)


def answered(*sources: SourceRef, evidence: tuple[tuple[str, int, int], ...] = ()) -> Answer:
    claim = Claim("12", True, tuple(s.unit_id for s in sources), "verifier", 0.9, evidence)
    text = " ".join(f"12 [{n}]" for n in range(1, len(sources) + 1))
    return Answer("How many books can a member borrow?", Decision.ANSWERED, text, (claim,), sources, (), ())


def test_an_answer_quotes_the_sentence_its_claim_was_checked_against_and_names_the_page() -> None:
    cited = source()
    sentence = "Members may borrow up to twelve books at a time."
    text = answer_markdown(answered(cited, evidence=(("u1", 100, 100 + len(sentence)),)), 1)
    assert text.startswith("## 1. How many books can a member borrow?")
    assert "12 [1]" in text
    assert f"> [1] “{sentence}”" in text and "Late returns" not in text
    assert "> — rules.pdf, p. 4" in text


def test_without_known_sentences_the_passage_is_quoted_and_a_section_names_a_text_citation() -> None:
    cited = SourceRef("u2", "d2", "/docs/guide.html", None, (), 0, len(PASSAGE), PASSAGE, section="Loans")
    answer = answered(cited)
    assert supporting_words(cited, answer) == PASSAGE
    assert "> — guide.html, Loans" in answer_markdown(answer)
    # evidence of another unit, or outside this passage, is not this passage's
    stray = answered(cited, evidence=(("u9", 0, 10), ("u2", 500, 510)))
    assert supporting_words(cited, stray) == PASSAGE


def test_a_scoped_answer_says_which_documents_it_was_asked_in() -> None:
    scope = ("/docs/rules.pdf", "/docs/fees.docx")
    answer = replace(answered(source()), scope=scope)
    assert "*Asked in:* rules.pdf, fees.docx" in answer_markdown(answer)
    assert answer_json(answer)["scope"] == list(scope)
    assert answer_from_plain(plain(answer)).scope == scope
    assert "Asked in" not in answer_markdown(answered(source()))
    many = replace(answered(source()), scope=tuple(f"/d/{n}.pdf" for n in range(8)))
    assert "*Asked in:* 0.pdf, 1.pdf, 2.pdf, 3.pdf, 4.pdf and 3 more" in answer_markdown(many)


def test_a_refusal_and_a_stopped_answer_are_said_as_such_and_cite_nothing() -> None:
    refusal = Refusal(Stage.RELEVANCE, "No passage is about this question.", {})
    refused = Answer("Who won in 1950?", Decision.REFUSED, "", (), (source(),), (), (), refusal=refusal)
    text = answer_markdown(refused)
    assert "**Refused: Not relevant enough.** No passage is about this question." in text
    assert "> [1]" not in text
    assert "*Closest passages (not an answer):*" not in text  # none were kept
    near = Answer("Who won?", Decision.REFUSED, "", (), (), (), (), refusal=refusal, considered=(source(),))
    assert "*Closest passages (not an answer):* rules.pdf, p. 4" in answer_markdown(near)
    assert answer_json(near)["considered"][0]["page"] == 4 and answer_json(near)["sources"] == []
    stopped = Answer("Why?", Decision.STOPPED, "Because the", (), (), (), ())
    assert "not verified:* Because the" in answer_markdown(stopped)
    assert bibliography([refused, stopped]) == []
    assert conversation_markdown("Refused", [refused]).endswith("*Exported from CiteDesk.*\n")


def test_a_conversation_lists_each_cited_document_once_with_its_pages() -> None:
    first = answered(source("u1", "/docs/rules.pdf", 4), source("u3", "/docs/rules.pdf", 7))
    second = answered(source("u1", "/docs/rules.pdf", 4), source("u5", "/docs/fees.csv", None))
    items = bibliography([first, second])
    assert [i["title"] for i in items] == ["rules.pdf", "fees.csv"]
    assert items[0]["pages"] == "4, 7" and "pages" not in items[1]
    assert items[0]["URL"] == "file:///docs/rules.pdf" and items[0]["type"] == "document"
    text = conversation_markdown("Library rules", [first, second])
    assert text.startswith("# Library rules\n") and "## 2. How many books" in text
    assert "- rules.pdf, pages 4, 7 (/docs/rules.pdf)" in text and "- fees.csv (/docs/fees.csv)" in text
    data = json.loads(json.dumps(conversation_json("c1", "Library rules", [first, second])))
    assert [a["answer"] for a in data["answers"]] == [first.text, second.text]
    assert data["answers"][0]["sources"][1]["page"] == 7 and len(data["bibliography"]) == 2


def test_a_workbooks_sheets_and_a_decks_slides_are_cited_as_such() -> None:
    """A window session's export cited openpyxl's loadExample.xlsx as "p. 4" and "pages 1, 4" where the
    window said "sheet mtCars Pivot" and "sheet IrisSample"."""
    pivot = replace(source("u1", "/docs/load.xlsx", 4), section="mtCars Pivot")
    iris = replace(source("u2", "/docs/load.xlsx", 1), section="IrisSample")
    slide = source("u3", "/docs/talk.pptx", 3)
    answer = answered(pivot, iris, slide)
    text = conversation_markdown("Cars", [answer])
    assert "> — load.xlsx, sheet mtCars Pivot" in text and "> — talk.pptx, slide 3" in text
    assert "- load.xlsx, sheet mtCars Pivot, sheet IrisSample (/docs/load.xlsx)" in text
    items = bibliography([answer])
    assert "pages" not in items[0] and items[1]["note"] == "slide 3"


def test_citedesk_export_lists_conversations_and_writes_the_last_one(tmp_path: Path, capsys) -> None:
    library = tmp_path / "library"
    with Engine.open(library, embedder=HashEmbedder()) as engine:
        store = engine.library.conversations
        conversation = store.new("Library rules")
        for answer in (answered(source()), answered(source("u7", "/docs/fees.pdf", 2))):
            store.add_turn(conversation, answer.question, plain(answer))
        assert len(engine.answers(conversation)) == 2
        assert answer_from_plain(plain(answered(source()))).sources[0].page == 4
    assert cli.main(["export", "--library", str(library)]) == 0
    assert conversation in capsys.readouterr().out
    out = tmp_path / "rules.md"
    assert cli.main(["export", "last", "--library", str(library), "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Library rules") and "> — fees.pdf, p. 2" in text
    assert cli.main(["export", conversation, "--library", str(library), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["conversation"] == conversation and len(data["answers"]) == 2
    # an unknown conversation, and a file that cannot be written, are said in words
    assert cli.main(["export", "nope", "--library", str(library)]) == 1
    assert "no conversation nope" in capsys.readouterr().err
    assert cli.main(["export", "last", "--library", str(library), "-o", str(tmp_path / "no" / "x.md")]) == 1
    assert "cannot write" in capsys.readouterr().err


def test_a_short_answers_quote_is_the_sentence_that_holds_its_words() -> None:
    from citedesk_engine.export import claim_quote

    text = "Testing made ratings tighter and cheaper.\nWe paid workers $0.25 for each batch of 25 items."
    ref = SourceRef("u1", "d", "/docs/paper.pdf", 5, (), 1000, 1000 + len(text), text)
    short = Claim("$0.25", True, ("u1",), "verifier", 0.9, (("u1", 1000, 1000 + len(text)),))
    answer = Answer("How much?", Decision.ANSWERED, "$0.25 [1]", (short,), (ref,), (), ())
    assert claim_quote(short, answer) == "We paid workers $0.25 for each batch of 25 items."
    sentence = Claim(
        "The study paid each of its workers $0.25 a batch.", True, ("u1",), "verifier", 0.9, short.evidence
    )
    assert claim_quote(sentence, answer) == ""  # a sentence says itself
    assert claim_quote(Claim("$0.25", False, (), "guard", 0.1), answer) == ""  # never for a removed claim


def test_a_markdown_headings_mark_is_not_quoted() -> None:
    """A window session on httpx's CHANGELOG.md: "2024" was shown with “## 0.28.1 (6th December, 2024)”."""
    from citedesk_engine.export import claim_quote

    text = "## 0.28.1 (6th December, 2024)\n\n* Fix SSL case where `verify=False` together with certificates."
    ref = SourceRef("u1", "d", "/docs/CHANGELOG.md", None, (), 0, len(text), text)
    year = Claim("2024", True, ("u1",), "verifier", 0.9, (("u1", 0, 30),))
    answer = Answer("When was httpx 0.28.1 released?", Decision.ANSWERED, "2024 [1]", (year,), (ref,), (), ())
    assert claim_quote(year, answer) == "0.28.1 (6th December, 2024)"
    fix = Claim("verify=False", True, ("u1",), "verifier", 0.9, (("u1", 32, len(text)),))
    assert claim_quote(fix, answer).startswith("Fix SSL case")


def test_a_word_broken_over_two_lines_of_a_pdf_is_quoted_whole() -> None:
    """A window session on mvtnorm's R News article: the quote read "multivariate normal proba- bilities"."""
    from citedesk_engine.export import claim_quote

    text = (
        "Basically, the package implements two functions: pmvnorm for the computation of multivariate\n"
        "normal proba-\nbilities and pmvt for multivariate t-\nprobabilities."
    )
    ref = SourceRef("u1", "d", "/docs/MVT_Rnews.pdf", 1, (), 0, len(text), text)
    names = Claim("pmvnorm, pmvt", True, ("u1",), "verifier", 0.9, (("u1", 0, len(text)),))
    answer = Answer("Which two functions?", Decision.ANSWERED, "pmvnorm, pmvt [1]", (names,), (ref,), (), ())
    quote = claim_quote(names, answer)
    assert "normal probabilities and pmvt" in quote
    assert "multivariate t-probabilities" in quote  # a compound's hyphen after one letter stays


def quoted(value: str, text: str, path: str, page: int | None, question: str) -> str:
    """The quote shown under the verified short answer `value`, checked against all of `text`."""
    from citedesk_engine.export import claim_quote

    ref = SourceRef("u1", "d", path, page, (), 0, len(text), text)
    claim = Claim(value, True, ("u1",), "verifier", 0.9, (("u1", 0, len(text)),))
    answer = Answer(question, Decision.ANSWERED, f"{value} [1]", (claim,), (ref,), (), ())
    return claim_quote(claim, answer)


def test_a_long_sentence_is_quoted_around_the_answer() -> None:
    """A window session on sandwich's vignette: the standard error 0.0043029 was quoted with a whole
    printed R table starting mid-call, no sign of which of its thirty numbers was the answer."""
    text = (
        "R> se <- function(vcov) sapply(vcov, function(x) sqrt(diag(x)))\nR> se(vc)\n"
        "standard basic CL-1 boot\ncount_(Intercept) 0.2249894 0.6034277 0.8944541 0.8667209\n"
        "count_institutions 0.0016022 0.0024664 0.0043029 0.0041135\n"
        "count_log(capital/employment) 0.0546614 0.0817540 0.1521416 0.1494889"
    )
    quote = quoted("0.0043029", text, "/docs/sandwich-CL.pdf", 17, "What is the CL-1 standard error?")
    assert quote.startswith("…") and quote.endswith("…") and len(quote) < 170
    assert "count_institutions 0.0016022 0.0024664 0.0043029 0.0041135" in quote
    assert "R> se <-" not in quote


def test_an_answer_of_several_values_is_quoted_around_them() -> None:
    """A window session on lmtest's vignette: "22.377, 0.001034" (the BP statistic and its p-value)
    was quoted from its passage's start, "The residual plot suggests ...", the values cut off."""
    text = (
        "The residual plot suggests that the variance of the residuals is not constant over the years, "
        "and the model is fitted again with a variance model before the test is applied to it "
        "R> var.model <- ~ I(dy^2) R> bptest(jocci.model, var.model, data = jocci) studentized "
        "Breusch-Pagan test data: jocci.model BP = 22.377, df = 6, p-value = 0.001034"
    )
    quote = quoted(
        "22.377, 0.001034", text, "/docs/lmtest-intro.pdf", 3, "What are the BP statistic and p-value?"
    )
    assert "BP = 22.377, df = 6, p-value = 0.001034" in quote and quote.startswith("…")
    assert "The residual plot" not in quote


def test_a_quote_opens_with_no_closing_mark() -> None:
    # Python's sorting HOW TO: the sentence split at a prompt's "..." began with the list's "]".
    from citedesk_engine.export import claim_quote

    text = "... ]\n>>> sorted(student_tuples, key=lambda student: student[2])\n[('dave', 'B', 10)]"
    ref = SourceRef("u1", "d", "/docs/sorting.html", None, (), 0, len(text), text)
    age = Claim("10", True, ("u1",), "verifier", 0.9, (("u1", 4, len(text)),))
    answer = Answer("How old is dave?", Decision.ANSWERED, "10 [1]", (age,), (ref,), (), ())
    assert claim_quote(age, answer).startswith(">>> sorted(student_tuples")


def test_a_table_row_is_quoted_whole_though_its_cells_hold_sentences() -> None:
    # readr's chickens.csv in a window session: Ginger's 12 eggs were quoted "... motto Listen."
    from citedesk_engine.export import claim_quote

    header = "chicken,sex,eggs_laid,motto"
    row = 'Ginger,hen,12,"Listen. We\'ll either die free chickens or we die trying."'
    ref = SourceRef("u1", "d", "/docs/chickens.csv", None, (), 0, len(row), row, "chickens.csv", header)
    eggs = Claim("12", True, ("u1",), "verifier", 0.9, (("u1", 0, len(row)),))
    answer = Answer("How many eggs did Ginger lay?", Decision.ANSWERED, "12 [1]", (eggs,), (ref,), (), ())
    assert claim_quote(eggs, answer) == (
        "chicken Ginger; sex hen; eggs_laid 12; motto Listen. We'll either die free chickens or we die "
        "trying."
    )


def test_a_table_rows_quote_names_each_cell_by_its_column() -> None:
    # A window session: "3.0,Woody,woody,2000-08-15,..." quoted bare under "Woody" said nothing.
    from citedesk_engine.export import claim_quote

    header = "version,codename,series,created,release,eol"
    rows = "2.2,Potato,potato,1999-03-09,2000-08-15,2003-06-30\n3.0,Woody,woody,2000-08-15,2002-07-19,"
    ref = SourceRef("u1", "d", "/docs/debian.csv", None, (), 200, 200 + len(rows), rows, "debian.csv", header)
    row = (200 + rows.index("3.0"), 200 + len(rows))
    claim = Claim("Woody", True, ("u1",), "verifier", 0.9, (("u1", *row),))
    answer = Answer(
        "What is the codename of Debian 3.0?", Decision.ANSWERED, "Woody [1]", (claim,), (ref,), (), ()
    )
    assert claim_quote(claim, answer) == (
        "version 3.0; codename Woody; series woody; created 2000-08-15; release 2002-07-19"
    )
    # the header row itself, and a passage of prose, are quoted as they are
    prose = replace(ref, passage=header + "\n" + rows, char_start=200 - len(header) - 1)
    head = Claim("codename", True, ("u1",), "verifier", 0.9, (("u1", prose.char_start, 200 - 1),))
    assert claim_quote(head, replace(answer, claims=(head,), sources=(prose,))) == header


def test_why_a_sentence_was_removed_is_said_in_words() -> None:
    from citedesk_engine.export import check_words

    assert check_words("guard: number 9") == "the passage does not give this number"
    assert (
        check_words("guard: number 162, 35, model's certainty 0.53")
        == "the passage does not give these numbers"
    )
    assert check_words("guard: number slot: 5 where the passage has 6.5") == (
        "it puts a number where the passage has another"
    )
    assert (
        check_words("verifier: not supported (0.23, aligned 0.50)")
        == "the passage does not read as saying it"
    )
    assert check_words("something new") == "something new"  # a check without words keeps its name
    # checks that say what they found: their own words, without the check's name ("guard: name" is
    # not "guard: named number")
    assert check_words(
        "guard: named number: the question asks about Debian 16; the rows cited hold none"
    ) == ("the question asks about Debian 16; the rows cited hold none")
    assert check_words("guard: table column: the value is from the column 'created'") == (
        "the value is from the column 'created'"
    )
    assert check_words("guard: named row: the question names Portland; no row of the table cited does") == (
        "the question names Portland; no row of the table cited does"
    )


def test_a_claim_checked_in_another_language_says_so_in_words() -> None:
    from citedesk_engine.export import check_words

    method = "checked in German as “Der Unterricht ist nicht frei.”: guard: negation"
    assert (
        check_words(method)
        == "it adds or drops a negation (checked in German as “Der Unterricht ist nicht frei.”)"
    )
    assert check_words("could not be put into French to check it") == (
        "it could not be translated into French, the passage's language, to check it"
    )


def test_an_answer_the_model_was_unsure_of_says_so_in_every_form_and_survives_storage() -> None:
    answer = answered(source())
    unsure = replace(answer, claims=(replace(answer.claims[0], caution=UNSURE),))
    assert f"*Unsure:* “12”: {UNSURE}" in answer_markdown(unsure)
    assert "Unsure" not in answer_markdown(answer)
    assert answer_json(unsure)["claims"][0]["caution"] == UNSURE
    assert answer_from_plain(plain(unsure)).claims[0].caution == UNSURE
    # A conversation stored before the caution existed reads back with none.
    stored = plain(answer)
    del stored["claims"][0]["caution"]
    assert answer_from_plain(stored).claims[0].caution == ""


def test_a_passage_going_on_over_a_page_break_is_cited_with_both_pages() -> None:
    """A window session's refusal named a passage running from page 10 to 11 "page 10"."""
    from citedesk_engine.types import Box

    over = replace(source(page=10), boxes=(Box(10, 72, 700, 500, 712), Box(11, 72, 80, 500, 92)))
    assert "> — rules.pdf, pp. 10–11" in answer_markdown(answered(over))
    assert "> — rules.pdf, p. 10" in answer_markdown(answered(source(page=10)))


def test_how_a_claim_was_verified_is_said_in_words() -> None:
    """Issue 23: "aligned 1.00, verifier 0.73" meant nothing to a reader; the figures stay in the method."""
    assert verified_words("aligned 1.00, verifier 0.73") == "the passage says this word for word"
    assert verified_words("aligned 0.86, verifier 0.91") == "the passage says this almost word for word"
    assert verified_words("aligned 0.60, semantic 0.71") == "the passage says this partly in other words"
    assert verified_words("the passage's answer, verifier 0.95 (re-cited), model's certainty 0.48") == (
        "read with the question, the passage supports this answer (the model had cited another passage)"
    )
    assert verified_words("some future check 0.5") == "some future check 0.5"
