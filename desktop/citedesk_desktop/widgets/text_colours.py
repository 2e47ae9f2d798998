"""The colours of the conversation's text, chosen for the window's palette so that each reads in a
light theme and in a dark one: at least WCAG AA's 4.5:1 against the background it stands on. Grey
text on white (3.9:1) and the refusal card's orange heading (3.4:1) read below it before, and the
error red on a dark theme's base (about 3:1)."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette

MIN_CONTRAST = 4.5  # WCAG 2.1 AA, normal text

# The colours meant, before they are made readable on the palette's background.
_RED = QColor("#c62828")
_GREEN = QColor("#2e7d32")
_ORANGE = QColor("#e65100")
_CARD_LIGHT = QColor("#fff3e0")  # the refusal card: a light orange on a light theme
_CARD_DARK = QColor("#3e2a1c")  # and a dark brown on a dark one
_CARD_BORDER = QColor("#ef6c00")


def contrast(a: QColor, b: QColor) -> float:
    """WCAG's contrast ratio of two colours, from 1 (the same) to 21 (black on white)."""
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Base).lightnessF() < 0.5


def readable(wanted: QColor, *backgrounds: QColor) -> QColor:
    """`wanted`, darkened (on light backgrounds) or lightened (on dark ones) just enough to reach
    MIN_CONTRAST against every one of `backgrounds`."""
    towards = QColor("black") if backgrounds[0].lightnessF() >= 0.5 else QColor("white")
    colour = QColor(wanted)
    for step in range(1, 21):
        if all(contrast(colour, b) >= MIN_CONTRAST for b in backgrounds):
            return colour
        colour = _mixed(wanted, towards, step / 20)
    return colour


def for_palette(wanted: QColor, palette: QPalette) -> QColor:
    """A signal colour (a failed document's red, a refusal's orange) as it reads on `palette`'s
    base: lightened on a dark theme, then made readable."""
    return readable(_lighter(wanted) if is_dark(palette) else wanted, palette.color(QPalette.ColorRole.Base))


def answer_style_sheet(palette: QPalette) -> str:
    """The transcript's style sheet: the classes answer_html.py writes (muted, error, ok, warn, and
    the refusal card with its heading, muted words and links), readable on `palette`."""
    base = palette.color(QPalette.ColorRole.Base)
    text = palette.color(QPalette.ColorRole.Text)
    link = palette.color(QPalette.ColorRole.Link)
    dark = is_dark(palette)
    card = _CARD_DARK if dark else _CARD_LIGHT
    muted = _mixed(text, base, 0.4)
    colours = {
        ".muted": readable(muted, base),
        ".error": for_palette(_RED, palette),
        ".ok": for_palette(_GREEN, palette),
        ".warn": for_palette(_ORANGE, palette),
        "a": readable(link, base, card),
        ".card .head": readable(_lighter(_ORANGE) if dark else _ORANGE, card),
        ".card .muted": readable(muted, card),
    }
    rules = [f"{selector} {{ color: {colour.name()}; }}" for selector, colour in colours.items()]
    rules.append(
        f"table.card {{ background-color: {card.name()}; color: {readable(text, card).name()}; "
        f"border: 1px solid {_CARD_BORDER.name()}; }}"
    )
    return "\n".join(rules)


def _luminance(colour: QColor) -> float:
    def channel(value: float) -> float:
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    rgb = colour.toRgb()
    return 0.2126 * channel(rgb.redF()) + 0.7152 * channel(rgb.greenF()) + 0.0722 * channel(rgb.blueF())


def _mixed(a: QColor, b: QColor, share_of_b: float) -> QColor:
    a, b = a.toRgb(), b.toRgb()
    return QColor.fromRgbF(
        a.redF() + (b.redF() - a.redF()) * share_of_b,
        a.greenF() + (b.greenF() - a.greenF()) * share_of_b,
        a.blueF() + (b.blueF() - a.blueF()) * share_of_b,
    )


def _lighter(colour: QColor) -> QColor:
    """The same hue for a dark background: halfway to white."""
    return _mixed(colour, QColor("white"), 0.5)
