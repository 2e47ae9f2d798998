"""Every piece of text of the conversation reads on what it stands on, in a light theme and a dark
one: WCAG AA's 4.5:1, measured on the transcript as Qt lays it out (the colour of each run of text
against the window's base or the refusal card's background)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from citedesk_desktop.widgets.chat_pane import ChatPane
from citedesk_desktop.widgets.text_colours import MIN_CONTRAST, contrast, for_palette, readable
from citedesk_engine.types import Answer, Claim, Conflict, Decision, Refusal, SourceRef, Stage
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QColor, QPalette, QTextCursor


def palette(base: str, text: str, link: str) -> QPalette:
    colours = QPalette()
    for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
        colours.setColor(group, QPalette.ColorRole.Base, QColor(base))
        colours.setColor(group, QPalette.ColorRole.Window, QColor(base))
        colours.setColor(group, QPalette.ColorRole.Text, QColor(text))
        colours.setColor(group, QPalette.ColorRole.WindowText, QColor(text))
        colours.setColor(group, QPalette.ColorRole.Link, QColor(link))
    return colours


# A light theme (Qt's Fusion) and a dark one (Fusion's dark colours, as KDE's Breeze Dark has them).
THEMES = {
    "light": palette("#ffffff", "#000000", "#0000ff"),
    "dark": palette("#1e1e1e", "#ffffff", "#2a82da"),
}


def answers() -> list[Answer]:
    ref = SourceRef("u-1", "/d/faq.pdf", "/d/faq.pdf", 3, (), 0, 60, "Arguments are passed to the panel.")
    kept = Claim("Arguments are passed to the panel.", True, ("u-1",), "aligned 1.00, verifier 0.8", 0.8)
    dropped = Claim("Lines accepts log.", False, (), "guard: negation", 0.2)
    conflict = Conflict("number", ("u-1", "u-2"), "page 3 says 4, page 5 says 5")
    answered = replace(
        Answer(
            "Why?",
            Decision.PARTIAL,
            "Arguments are passed to the panel. [1]",
            (kept, dropped),
            (ref,),
            (),
            (),
        ),
        conflicts=(conflict,),
        searched="Why does plot warn?",
    )
    best = [{"unit_id": "u-1", "document": "/d/faq.pdf", "page": 3, "coverage": 0.2, "similarity": 0.1}]
    refusal = Refusal(Stage.RELEVANCE, "Nothing in the library is relevant enough.", {"best": best})
    refused = Answer("Who?", Decision.REFUSED, "", (), (), (), (), refusal=refusal, considered=(ref,))
    return [answered, refused]


@pytest.mark.parametrize("theme", THEMES)
def test_every_run_of_the_conversations_text_reads_on_its_background(qtbot, theme: str) -> None:
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.setPalette(THEMES[theme])  # as when the system's theme changes: the pane recolours itself
    for answer in answers():
        pane.show_answer(answer)
    pane.transcript.anchorClicked.emit(QUrl("removed:1"))  # the removed sentence, shown with why
    document = pane.transcript.document()
    base = pane.transcript.palette().color(QPalette.ColorRole.Base)
    text = pane.transcript.palette().color(QPalette.ColorRole.Text)
    assert base == QColor(THEMES[theme].color(QPalette.ColorRole.Base))
    seen, card_seen = 0, False
    block = document.begin()
    while block.isValid():
        fragments = block.begin()
        while not fragments.atEnd():
            fragment = fragments.fragment()
            fragments += 1
            if not fragment.text().strip():
                continue
            brush = fragment.charFormat().foreground()
            colour = brush.color() if brush.style() != Qt.BrushStyle.NoBrush else text
            cursor = QTextCursor(document)
            cursor.setPosition(fragment.position())
            table = cursor.currentTable()
            ground = table.format().background().color() if table is not None else base
            card_seen |= table is not None
            ratio = contrast(colour, ground)
            assert ratio >= MIN_CONTRAST, (
                f"{fragment.text()!r}: {colour.name()} on {ground.name()}, {ratio:.2f}"
            )
            seen += 1
        block = block.next()
    plain = pane.transcript.toPlainText()
    assert "Refused" in plain and "Lines accepts log." in plain and "Conflict" in plain
    assert card_seen and seen > 10


def test_readable_keeps_a_colour_that_reads_and_darkens_or_lightens_one_that_does_not() -> None:
    white, black = QColor("#ffffff"), QColor("#1e1e1e")
    assert readable(QColor("#000080"), white) == QColor("#000080")
    grey = readable(QColor("#808080"), white)  # 3.9:1 on white
    assert contrast(grey, white) >= MIN_CONTRAST and grey.lightnessF() < QColor("#808080").lightnessF()
    red = for_palette(QColor("#c62828"), THEMES["dark"])  # about 2.9:1 on the dark base as it was
    assert contrast(QColor("#c62828"), black) < MIN_CONTRAST <= contrast(red, black)
