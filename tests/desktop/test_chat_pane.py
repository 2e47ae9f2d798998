"""How the conversation pane words answers: citation labels, refusal cards, stopped questions."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

from citedesk_desktop.widgets.chat_pane import ChatPane
from citedesk_engine.index.conversations import ConversationInfo
from citedesk_engine.types import Answer, Claim, Decision, Refusal, SourceRef, Stage
from PySide6.QtCore import QUrl


def source(path: str, section: str, page: int | None = None) -> SourceRef:
    return SourceRef("u-1", path, path, page, (), 0, 10, "codename: bookworm", section=section)


def cited(ref: SourceRef) -> Answer:
    claim = Claim("Bookworm", True, ("u-1",), "verifier", 0.9)
    return Answer("What is Debian 12 called?", Decision.ANSWERED, "Bookworm [1]", (claim,), (ref,), (), ())


def test_a_tables_citation_names_its_file_once_and_a_section_beside_it(qtbot) -> None:
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.show_answer(cited(source("/docs/debian.csv", "debian.csv")))
    text = pane.transcript.toPlainText()
    assert "debian.csv" in text and "debian.csv, debian.csv" not in text
    pane.show_answer(cited(source("/docs/book.xlsx", "quakes")))
    assert "book.xlsx, quakes" in pane.transcript.toPlainText()
    # a sheet is its sheet and a slide its slide, not "page 4" (a window session)
    pane.show_answer(cited(source("/docs/data.xlsx", "quakes", page=4)))
    assert "data.xlsx, sheet quakes" in pane.transcript.toPlainText()
    assert "data.xlsx, page 4" not in pane.transcript.toPlainText()
    pane.show_answer(cited(source("/docs/talk.pptx", "Results", page=4)))
    assert "talk.pptx, slide 4" in pane.transcript.toPlainText()


def test_a_generation_refusal_does_not_show_the_models_refusal_phrase(qtbot) -> None:
    pane = ChatPane()
    qtbot.addWidget(pane)
    reason = "The model read the passages that came closest to the question and found no answer in them."
    refusal = Refusal(Stage.GENERATION, reason, {"generated": "NOT IN PASSAGES"})
    pane.show_answer(Answer("Who funded it?", Decision.REFUSED, "", (), (), (), (), refusal=refusal))
    text = pane.transcript.toPlainText()
    assert "found no answer" in text and "NOT IN PASSAGES" not in text
    written = Refusal(Stage.FAITHFULNESS, "No sentence is supported.", {"generated": "It was 1998 [1]."})
    pane.show_answer(Answer("When?", Decision.REFUSED, "", (), (), (), (), refusal=written))
    assert "The model wrote: It was 1998 [1]." in pane.transcript.toPlainText()
    claim = Claim("It was 1998.", False, (), "guard: number 1998", 0.5)
    why = Answer("When?", Decision.REFUSED, "", (claim,), (), (), (), refusal=written)
    pane.show_answer(why)
    assert "It was 1998. — the passage does not give this number" in pane.transcript.toPlainText()


def test_copy_puts_the_answer_with_its_evidence_on_the_clipboard_and_export_saves_the_conversation(
    qtbot, tmp_path
) -> None:
    import json

    from PySide6.QtCore import QUrl
    from PySide6.QtGui import QGuiApplication

    pane = ChatPane()
    qtbot.addWidget(pane)
    assert not pane.export_button.isEnabled()  # nothing to export yet
    pane.show_answer(cited(source("/docs/debian.csv", "debian.csv")))
    assert pane.export_button.isEnabled() and "Copy with its evidence" in pane.transcript.toPlainText()
    with qtbot.waitSignal(pane.notice):
        pane._on_link(QUrl("copy:1"))
    copied = QGuiApplication.clipboard().text()
    assert copied.startswith("## What is Debian 12 called?") and "“codename: bookworm”" in copied
    pane.export_conversation(str(tmp_path / "talk.md"))
    text = (tmp_path / "talk.md").read_text(encoding="utf-8")
    assert "## 1. What is Debian 12 called?" in text and "- debian.csv" in text
    pane.export_conversation(str(tmp_path / "talk.json"))
    assert json.loads((tmp_path / "talk.json").read_text())["answers"][0]["answer"] == "Bookworm [1]"


def test_the_export_button_asks_where_and_saves(qtbot, tmp_path, monkeypatch) -> None:
    """A window session: Export… under the conversations did nothing (the click's checked state was
    taken for the file's path); the suggested name had a double dash ("who-wrote--fitting")."""
    from citedesk_desktop.widgets import chat_pane

    asked: list[str] = []

    def save_as(parent, caption, suggested, filters):  # type: ignore[no-untyped-def]
        asked.append(suggested)
        return str(tmp_path / "chosen.md"), filters

    monkeypatch.setattr(chat_pane.QFileDialog, "getSaveFileName", save_as)
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.show_answer(cited(source("/docs/debian.csv", "debian.csv")))
    with qtbot.waitSignal(pane.notice):
        pane.export_button.click()
    assert Path(asked[0]).name == "what-is-debian-12-called.md"
    assert "## 1. What is Debian 12 called?" in (tmp_path / "chosen.md").read_text(encoding="utf-8")


def test_a_relevance_refusal_links_each_kept_passage_from_its_line_of_what_was_considered(qtbot) -> None:
    near = source("/docs/debian.csv", "debian.csv")
    best = [{"unit_id": "u-1", "document": "/docs/debian.csv", "coverage": 0.25, "similarity": 0.08}]
    refusal = Refusal(Stage.RELEVANCE, "Nothing in the library is relevant enough.", {"best": best})
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.show_answer(
        Answer("Boiling point?", Decision.REFUSED, "", (), (), (), (), refusal=refusal, considered=(near,))
    )
    page = pane.transcript.toHtml()
    assert page.count("near:1.1") == 1  # on its line of figures, not again in a line of its own
    assert "click one to read it" in pane.transcript.toPlainText()
    assert "See the closest passages anyway" not in pane.transcript.toPlainText()


def test_a_refusals_closest_passages_are_listed_most_likely_to_answer_first(qtbot) -> None:
    def near(unit: str, section: str, rerank: float | None) -> SourceRef:
        return SourceRef(
            unit,
            "/docs/argparse.html",
            "/docs/argparse.html",
            None,
            (),
            0,
            9,
            "x",
            section=section,
            rerank=rerank,
        )

    considered = (
        near("u-1", "Conflicting options", 0.12),
        near("u-2", "Short options", None),
        near("u-3", "Optional arguments", 0.994),
    )
    refusal = Refusal(Stage.FAITHFULNESS, "No sentence of the generated answer is supported.", {})
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.show_answer(
        Answer(
            "What does store_true do?",
            Decision.REFUSED,
            "",
            (),
            (),
            (),
            (),
            refusal=refusal,
            considered=considered,
        )
    )
    text = pane.transcript.toPlainText()
    line = text[text.index("See the closest passages anyway") :]
    assert line.index("Optional arguments") < line.index("Conflicting options") < line.index("Short options")
    assert "near:1.3" in pane.transcript.toHtml()  # each link still opens its own passage


def test_a_short_answer_reads_with_the_passages_sentence_that_says_it(qtbot) -> None:
    passage = "Members may borrow up to twelve books at a time. Late returns cost ten cents a day."
    ref = SourceRef("u-1", "/docs/rules.pdf", "/docs/rules.pdf", 4, (), 100, 100 + len(passage), passage)
    sentence = (("u-1", 100, 148),)  # "Members may borrow up to twelve books at a time."
    short = Claim("12", True, ("u-1",), "verifier", 0.9, sentence)
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.show_answer(Answer("How many books?", Decision.ANSWERED, "12 [1]", (short,), (ref,), (), ()))
    text = pane.transcript.toPlainText()
    assert "12 ✓ [1] — “Members may borrow up to twelve books at a time.”" in text
    assert "Late returns" not in text
    # A sentence says itself: nothing is quoted beneath it; nor where the sentence is not known.
    whole = Claim(
        "Members may borrow up to twelve books at a time.", True, ("u-1",), "verifier", 0.9, sentence
    )
    pane.show_answer(Answer("How many?", Decision.ANSWERED, whole.text + " [1]", (whole,), (ref,), (), ()))
    unknown = Claim("12", True, ("u-1",), "verifier", 0.9)
    pane.show_answer(Answer("How many?", Decision.ANSWERED, "12 [1]", (unknown,), (ref,), (), ()))
    assert pane.transcript.toPlainText().count("“Members may borrow") == 1


def test_mentions_name_documents_and_scope_the_question_sent(qtbot) -> None:
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.set_documents(
        {"/d/bridge.txt": "bridge.txt", "/d/annual report.pdf": "annual report.pdf", "/d/b2.txt": "b2.txt"}
    )
    sent: list[tuple] = []
    notices: list[str] = []
    pane.ask_requested.connect(lambda *args: sent.append(args))
    pane.notice.connect(notices.append)
    # a whole name (case aside), a quoted name with a space, the start of exactly one name
    pane.question.setPlainText('How long is it? @Bridge.txt @"annual report.pdf" @annual')
    pane._submit()
    assert sent == [("How long is it?", None, ["/d/bridge.txt", "/d/annual report.pdf"])]
    assert pane.question.toPlainText() == ""
    # "@b" starts two names: not sent, the box keeps the question, the notice says why
    pane.question.setPlainText("How long? @b")
    pane._submit()
    assert len(sent) == 1 and "No document of the library is named @b" in notices[-1]
    assert pane.question.toPlainText() == "How long? @b"
    # the scope bar's documents are asked in too, and are dropped when they leave the library
    pane.set_scope(["/d/b2.txt"])
    assert pane.scope_bar.isVisibleTo(pane) and "b2.txt" in pane.scope_label.text()
    pane.question.setPlainText("What is in it? @bridge.txt")
    pane._submit()
    assert sent[-1][2] == ["/d/b2.txt", "/d/bridge.txt"]
    pane.set_documents({"/d/bridge.txt": "bridge.txt"})
    assert pane.scope == [] and not pane.scope_bar.isVisibleTo(pane)


def test_typing_at_offers_the_documents_and_a_choice_is_written_as_a_mention(qtbot) -> None:
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.show()
    pane.set_documents({"/d/annual report.pdf": "annual report.pdf", "/d/notes.md": "notes.md"})
    pane.question.setFocus()
    qtbot.keyClicks(pane.question, "Costs in @ann")
    completer = pane.question.completer
    assert completer.popup().isVisible() and completer.currentCompletion() == "annual report.pdf"
    pane.question._complete("annual report.pdf")
    assert pane.question.toPlainText() == 'Costs in @"annual report.pdf" '


def test_a_scoped_answer_says_where_it_was_asked(qtbot) -> None:
    answer = cited(source("/docs/debian.csv", "row 3"))
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.show_answer(replace(answer, scope=("/docs/debian.csv",)))
    assert "Asked in: debian.csv" in pane.transcript.toPlainText()


def test_verified_sentences_are_marked_and_removed_ones_shown_on_request_with_why(qtbot) -> None:
    ref = source("/docs/report.pdf", "", page=2)
    kept = Claim(
        "The harbour handled 4.2 million containers.", True, ("u-1",), "aligned 1.00, verifier 0.97", 1.0
    )
    dropped = Claim("It handled 9 million in 2022.", False, ("u-1",), "guard: number 9", 0.5)
    answer = Answer(
        "How many containers?",
        Decision.PARTIAL,
        "The harbour handled 4.2 million containers. [1]",
        (kept, dropped),
        (ref,),
        (),
        (),
        removed_claims=1,
    )
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.show_answer(answer)
    text = pane.transcript.toPlainText()
    assert "4.2 million containers. ✓" in text
    assert "1 unsupported sentence removed · show why" in text and "9 million" not in text
    pane._on_link(QUrl("removed:1"))
    text = pane.transcript.toPlainText()
    assert "It handled 9 million in 2022. — the passage does not give this number (guard: number 9)" in text
    assert "<s>" in pane.transcript.toHtml() or "line-through" in pane.transcript.toHtml()
    pane._on_link(QUrl("removed:1"))
    assert "9 million" not in pane.transcript.toPlainText()


def test_a_refusal_offers_to_ask_again_in_each_close_document_alone(qtbot) -> None:
    near = source("/docs/vader.pdf", "", page=5)
    other = replace(source("/docs/liwc.pdf", "", page=2), unit_id="u-2")
    again = replace(source("/docs/vader.pdf", "", page=6), unit_id="u-3")
    refusal = Refusal(Stage.FAITHFULNESS, "No sentence of the generated answer is supported.", {})
    refused = Answer(
        "How many raters?",
        Decision.REFUSED,
        "",
        (),
        (),
        (),
        (),
        refusal=refusal,
        considered=(near, other, again),
    )
    pane = ChatPane()
    qtbot.addWidget(pane)
    sent: list[tuple] = []
    pane.ask_requested.connect(lambda *args: sent.append(args))
    pane.show_answer(replace(refused, conversation="c1"))
    # each document of the closest passages, closest first, once: the answer may stand in the second
    assert "Ask again in one document only: vader.pdf · liwc.pdf" in pane.transcript.toPlainText()
    pane._on_link(QUrl("askin:1.2"))
    pane._on_link(QUrl("askin:1.1"))
    pane._on_link(QUrl("askin:1.3"))  # no third document: nothing asked
    assert sent == [
        ("How many raters?", "c1", ["/docs/liwc.pdf"]),
        ("How many raters?", "c1", ["/docs/vader.pdf"]),
    ]
    # refused at relevance (an off-document question): no passage anywhere answers, so none is offered
    off = Refusal(Stage.RELEVANCE, "No passage is relevant enough to answer.", {})
    pane.show_answer(replace(refused, question="Who won the 1998 World Cup?", refusal=off))
    assert pane.transcript.toPlainText().count("Ask again in one document only") == 1
    # every passage weighed is from vader.pdf already: asked there alone, the same ones come back
    pane.show_answer(replace(refused, considered=(near, again)))
    assert pane.transcript.toPlainText().count("Ask again in one document only") == 1


def test_candidates_of_a_relevance_refusal_on_one_page_are_told_apart(qtbot) -> None:
    first = SourceRef(
        "u-1", "/d/vader.pdf", "/d/vader.pdf", 6, (), 0, 40, "We collected intensity ratings on each"
    )
    second = SourceRef(
        "u-2", "/d/vader.pdf", "/d/vader.pdf", 6, (), 40, 80, "Ratings were obtained using Amazon"
    )
    best = [
        {"unit_id": "u-1", "document": "/d/vader.pdf", "page": 6, "coverage": 0.2, "similarity": 0.31},
        {"unit_id": "u-2", "document": "/d/vader.pdf", "page": 6, "coverage": 0.1, "similarity": 0.29},
    ]
    refusal = Refusal(Stage.RELEVANCE, "No passage is relevant enough to answer.", {"best": best})
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.show_answer(
        Answer("Why?", Decision.REFUSED, "", (), (), (), (), refusal=refusal, considered=(first, second))
    )
    text = pane.transcript.toPlainText()
    assert (
        "vader.pdf, page 6 (“We collected intensity ratings on…”): holds 20% of the question's words" in text
    )
    assert "vader.pdf, page 6 (“Ratings were obtained using Amazon…”): holds 10%" in text
    # the figures in words, the numbers beside them
    assert "holds 20% of the question's words, loosely related (similarity 0.31)" in text


def test_closest_passages_of_one_page_are_told_apart_by_their_first_words(qtbot) -> None:
    first = SourceRef(
        "u-1", "/d/vader.pdf", "/d/vader.pdf", 5, (), 0, 40, "We collected intensity ratings on each"
    )
    second = SourceRef(
        "u-2", "/d/vader.pdf", "/d/vader.pdf", 5, (), 40, 80, "Ratings were obtained using Amazon"
    )
    other = SourceRef("u-3", "/d/vader.pdf", "/d/vader.pdf", 9, (), 0, 20, "The F1 score of VADER")
    refusal = Refusal(Stage.FAITHFULNESS, "No sentence is supported.", {})
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.show_answer(
        Answer(
            "Where?", Decision.REFUSED, "", (), (), (), (), refusal=refusal, considered=(first, second, other)
        )
    )
    text = pane.transcript.toPlainText()
    assert "vader.pdf, page 5 (“We collected intensity ratings on…”)" in text
    assert "vader.pdf, page 5 (“Ratings were obtained using Amazon…”)" in text
    # a passage opening with a figure's axis ticks is named by its first words
    ticks = SourceRef(
        "u-4", "/d/vader.pdf", "/d/vader.pdf", 5, (), 80, 99, "300\n400\n500\n\nper capita income\n"
    )
    pane.show_answer(
        Answer("Where?", Decision.REFUSED, "", (), (), (), (), refusal=refusal, considered=(first, ticks))
    )
    assert "vader.pdf, page 5 (“per capita income…”)" in pane.transcript.toPlainText()
    assert "vader.pdf, page 9 ·" not in text and "vader.pdf, page 9" in text and "(“The F1" not in text


def test_what_the_engine_is_doing_is_said_until_the_answer_comes(qtbot) -> None:
    """A window session: for the seconds before the first word streamed, only the status bar said
    "Working…"."""
    from citedesk_engine.events import StageStarted

    pane = ChatPane()
    qtbot.addWidget(pane)
    asked = []
    pane.ask_requested.connect(lambda *args: asked.append(args))
    pane.question.setPlainText("What is Debian 12 called?")
    pane.ask_button.click()
    assert asked
    pane.on_event(StageStarted("extract", "/docs/a.pdf"))  # an ingest's stage says nothing here
    assert "…" not in pane.transcript.toPlainText()
    pane.on_event(StageStarted("retrieve", "What is Debian 12 called?"))
    assert "Searching the library…" in pane.transcript.toPlainText()
    pane.on_event(StageStarted("generate", "What is Debian 12 called?"))
    text = pane.transcript.toPlainText()
    assert "Writing the answer from the passages…" in text and "Searching" not in text
    pane.show_answer(cited(source("/docs/debian.csv", "debian.csv")))
    assert "Writing the answer" not in pane.transcript.toPlainText()
    pane.on_event(StageStarted("retrieve", "late"))  # nothing asked: nothing said
    assert "Searching" not in pane.transcript.toPlainText()


def hovered(qtbot, answer: Answer, link: str) -> tuple[ChatPane, str]:  # type: ignore[no-untyped-def]
    """A shown pane with `answer`, the pointer resting on `link`: the pane and its card's text."""
    from PySide6.QtWidgets import QToolTip

    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.show()
    pane.show_answer(answer)
    pane._on_hover(QUrl(link))
    qtbot.waitUntil(QToolTip.isVisible, timeout=5_000)
    return pane, QToolTip.text()


def test_a_resting_pointer_on_a_citation_shows_its_card_with_what_verified_the_answer(qtbot) -> None:
    from PySide6.QtWidgets import QToolTip

    text = "Opening hours are posted at the entrance. Members may borrow up to twelve books at a time."
    said = (text.index("Members"), len(text))
    ref = SourceRef("u-1", "/docs/rules.pdf", "/docs/rules.pdf", 3, (), 0, len(text), text)
    claim = Claim("12", True, ("u-1",), "verifier", 0.9, (("u-1", *said),))
    answer = Answer("How many books?", Decision.ANSWERED, "12 [1]", (claim,), (ref,), (), ())
    pane, card = hovered(qtbot, answer, "cite:1.1")
    assert "rules.pdf, page 3" in card and "Members may borrow up to twelve books at a time." in card
    assert "Opening hours" not in card  # the sentence that verified it, not the whole passage
    pane._on_hover(QUrl())  # the pointer leaves every link: the card goes
    qtbot.waitUntil(lambda: not QToolTip.isVisible(), timeout=5_000)


def test_the_pointer_leaving_the_conversation_from_a_link_ends_the_hover(qtbot) -> None:
    """A window session moved the pointer from a citation straight to the evidence beside it: the
    preview stayed in place of the citation clicked (Qt says nothing when the pointer leaves that way)."""
    from PySide6.QtCore import QEvent
    from PySide6.QtWidgets import QApplication

    text = "Members may borrow up to twelve books at a time."
    ref = SourceRef("u-1", "/docs/rules.pdf", "/docs/rules.pdf", 3, (), 0, len(text), text)
    answer = Answer("How many books?", Decision.ANSWERED, "12 [1]", (), (ref,), (), ())
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.show()
    pane.show_answer(answer)
    with qtbot.waitSignal(pane.source_hovered, timeout=5_000) as shown:
        pane._on_hover(QUrl("cite:1.1"))
    assert shown.args[0] == ref
    with qtbot.waitSignal(pane.source_hovered, timeout=5_000) as left:
        QApplication.sendEvent(pane.transcript.viewport(), QEvent(QEvent.Type.Leave))
    assert left.args == [None, None]


def test_a_refusals_closest_passage_has_a_card_saying_it_is_no_answer_with_its_cells_named(qtbot) -> None:
    from PySide6.QtWidgets import QToolTip

    header = "version,codename,released"
    rows = "8,Jessie,2015-04-26\n9,Stretch,2017-06-17"
    table = SourceRef(
        "u-1", "/docs/debian.csv", "/docs/debian.csv", None, (), 0, len(rows), rows, header=header
    )
    quoted = "“Rcpp: Seamless R and C++ Integration” is the title."
    paper = SourceRef("u-2", "/docs/rcpp.pdf", "/docs/rcpp.pdf", 1, (), 0, len(quoted), quoted)
    refusal = Refusal(Stage.FAITHFULNESS, "No sentence of the generated answer is supported.", {})
    answer = Answer(
        "Debian 12?", Decision.REFUSED, "", (), (), (), (), refusal=refusal, considered=(table, paper)
    )
    pane, card = hovered(qtbot, answer, "near:1.1")
    assert "version 8; codename Jessie" in card and "8,Jessie" not in card  # cells named, not a bare line
    assert "not an answer" in card
    pane._on_hover(QUrl())
    qtbot.waitUntil(lambda: not QToolTip.isVisible(), timeout=5_000)
    pane._on_hover(QUrl("near:1.2"))
    qtbot.waitUntil(lambda: "rcpp.pdf" in QToolTip.text(), timeout=5_000)
    assert "““" not in QToolTip.text() and "“Rcpp: Seamless" in QToolTip.text()  # quoted once


def test_a_cards_heading_is_named_once() -> None:
    from citedesk_desktop.widgets.answer_html import citation_card

    text = "RotatingFileHandler instances send messages to disk files."
    page = SourceRef(
        "u-1", "/d/howto.html", "/d/howto.html", None, (), 0, len(text), text, section="Useful Handlers"
    )
    answer = Answer("Which handler?", Decision.ANSWERED, "", (), (page,), (), ())
    card = citation_card(replace(page, heading="Useful Handlers"), answer)
    assert card.count("Useful Handlers") == 1  # the place names it already
    pdf = replace(page, path="/d/manual.pdf", page=44, section="", heading="procfs and sysfs")
    assert "<i>procfs and sysfs</i>" in citation_card(pdf, answer)


def test_a_refusal_offers_its_closest_passages_headings_to_rephrase_the_question_with(qtbot) -> None:
    from citedesk_engine.types import DocumentMeta

    def near(unit: str, heading: str, title: str = "") -> SourceRef:
        text = "Locales are generated by dpkg-reconfigure."
        return SourceRef(
            unit, "doc-1", "/docs/manual.pdf", 158, (), 0, len(text), text, heading=heading,
            about=DocumentMeta(title=title),
        )  # fmt: skip

    considered = (
        near("u-1", "8.1.2 Locale rationale"),
        near("u-2", "8.1.2  Locale rationale"),  # the same heading: offered once
        near("u-3", "Debian Reference", title="Debian Reference"),  # the title: every passage is under it
        near("u-4", ""),
    )
    refusal = Refusal(Stage.GENERATION, "The model found no answer in them.", {})
    question = "How do I generate the locale data on Debian?"
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.set_documents({"doc-1": "manual.pdf"})
    pane.show_answer(
        Answer(question, Decision.REFUSED, "", (), (), (), (), refusal=refusal, considered=considered)
    )
    page = pane.transcript.toHtml()
    assert "Rephrase with a heading near your question" in pane.transcript.toPlainText()
    assert page.count("rephrase:1.") == 1 and "rephrase:1.1" in page
    with qtbot.waitSignal(pane.notice) as notice:
        pane._on_link(QUrl("rephrase:1.1"))
    assert pane.question.toPlainText() == (
        "In the section “8.1.2 Locale rationale”, how do I generate the locale data on Debian?"
    )
    assert pane.scope == ["doc-1"] and "manual.pdf" in notice.args[0]
    # Asked so and refused again: that heading is not offered again (it would go round in a circle) ...
    again = Answer(pane.question.toPlainText(), Decision.REFUSED, "", (), (), (), (), refusal=refusal)
    pane.show_answer(replace(again, considered=considered))
    assert pane.transcript.toHtml().count("rephrase:2.") == 0
    # ... and after a relevance refusal no heading is: none of those passages was judged close.
    off = Refusal(Stage.RELEVANCE, "Nothing in the library is relevant enough to this question.", {})
    pane.show_answer(
        Answer(question, Decision.REFUSED, "", (), (), (), (), refusal=off, considered=considered)
    )
    assert "rephrase:3." not in pane.transcript.toHtml()
    # Nor a heading whose every word the question already says (a window session: "random.gauss"
    # offered to "Is random.gauss() thread-safe?").
    own = (near("u-5", "random.gauss"), near("u-6", "random.normalvariate"))
    asked = Answer("Is random.gauss() thread-safe?", Decision.REFUSED, "", (), (), (), (), refusal=refusal)
    pane.show_answer(replace(asked, considered=own))
    page = pane.transcript.toHtml()
    assert "rephrase:4.2" in page and "rephrase:4.1" not in page


def test_rephrased_keeps_a_names_capitals() -> None:
    from citedesk_desktop.widgets.answer_html import rephrased

    assert rephrased("VADER uses which heuristics?", "Heuristics") == (
        "In the section “Heuristics”, VADER uses which heuristics?"
    )


def test_a_conversation_read_at_its_foot_stays_there_when_the_pane_narrows(qtbot) -> None:
    """A narrower window made the conversation longer and its latest answer scrolled away."""
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.resize(900, 400)
    pane.show()
    refusal = Refusal(Stage.GENERATION, "The model found no answer. " * 8, {})
    for n in range(8):
        pane.show_answer(Answer(f"Question {n}?", Decision.REFUSED, "", (), (), (), (), refusal=refusal))
    bar = pane.transcript.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0 and bar.value() == bar.maximum(), timeout=5_000)
    before = bar.maximum()
    pane.resize(450, 400)
    qtbot.waitUntil(lambda: bar.maximum() > before, timeout=5_000)
    assert bar.value() == bar.maximum()
    bar.setValue(0)  # scrolled up to read: a resize leaves it there
    pane.resize(700, 400)
    qtbot.wait(200)
    assert bar.value() == 0


def test_delete_and_export_wait_for_a_selection_and_for_the_answer_being_written(qtbot) -> None:
    """A window session: while a question was answered, Delete stayed enabled and did nothing."""
    pane = ChatPane()
    qtbot.addWidget(pane)
    now = time.time()
    pane.set_conversations([ConversationInfo("c1", "What is Debian 12 called?", now, now, 1)])
    assert not pane.delete_button.isEnabled()  # nothing selected: nothing to delete
    pane.conversations.item(0).setSelected(True)
    pane.show_answer(cited(source("/docs/debian.csv", "debian.csv")))
    assert pane.delete_button.isEnabled() and pane.export_button.isEnabled()
    pane.set_busy(True)
    assert not pane.delete_button.isEnabled() and not pane.export_button.isEnabled()
    pane.set_busy(False)
    assert pane.delete_button.isEnabled() and pane.export_button.isEnabled()


def test_a_quoted_answer_says_the_model_wrote_none_and_the_sentence_is_the_documents() -> None:
    """A window session read "the model found no answer in its own words" beside a verified mark as
    a contradiction."""
    from citedesk_desktop.widgets.answer_html import answer_html

    text = "Deprecated since version 3.10: This method is deprecated in favor of Path.hardlink_to()."
    ref = SourceRef("u-1", "/docs/pathlib.html", "/docs/pathlib.html", None, (), 0, len(text), text)
    claim = Claim(text, True, ("u-1",), "aligned 1.00", 1.0)
    answer = Answer("Is Path.link_to deprecated?", Decision.ANSWERED, text + " [1]", (claim,), (ref,), (), ())
    page = answer_html(replace(answer, quote=True), 1)
    assert "the answer model wrote no answer; this sentence of your documents, word for word" in page
    assert "in its own words" not in page and "Deprecated since version 3.10" in page


def test_a_verified_answer_the_model_was_unsure_of_is_marked_and_says_why() -> None:
    """Verified short answers written with little certainty are wrong about three times as often
    (config.py): the reader sees it beside the answer."""
    from citedesk_desktop.widgets.answer_html import answer_html
    from citedesk_engine.answer.cautions import ONE_PART, UNSURE

    text = "The buyer pays shipping."
    ref = SourceRef("u-1", "/docs/terms.pdf", "/docs/terms.pdf", 2, (), 0, len(text), text)
    claim = Claim("the buyer", True, ("u-1",), "verifier 0.9, model's certainty 0.24", 0.9, caution=UNSURE)
    answer = Answer("Who pays shipping?", Decision.ANSWERED, "the buyer [1]", (claim,), (ref,), (), ())
    page = answer_html(answer, 1)
    assert ">unsure</small>" in page and f"“the buyer”: {UNSURE}" in page
    sure = answer_html(replace(answer, claims=(replace(claim, caution=""),)), 1)
    assert "unsure" not in sure and UNSURE not in sure
    # A caution of another kind is named for what it is, not "unsure".
    part = answer_html(replace(answer, claims=(replace(claim, caution=ONE_PART),)), 1)
    assert ">one part</small>" in part and ">unsure</small>" not in part


def test_a_passage_going_on_over_a_page_break_is_named_with_both_pages() -> None:
    """A window session's refusal named a passage running from page 10 to 11 "page 10"."""
    from citedesk_desktop.widgets.answer_html import _where
    from citedesk_engine.types import Box

    text = "it is not significant at 5% level and hence graphically down-weighted."
    boxes = (Box(10, 72, 700, 500, 712), Box(11, 72, 80, 500, 92))
    over = SourceRef("u-1", "/docs/vcd.pdf", "/docs/vcd.pdf", 10, boxes, 0, len(text), text)
    assert _where(over) == "vcd.pdf, pages 10–11"
    assert _where(replace(over, boxes=boxes[:1])) == "vcd.pdf, page 10"
