"""Which writing systems a text uses, from Unicode code point ranges (names as in CiteNexus)."""

from __future__ import annotations

import bisect
import unicodedata

# (first, last, script); letters outside every range count as "unknown", non-letters as "common".
_RANGES: tuple[tuple[int, int, str], ...] = tuple(
    sorted(
        [
            (0x0041, 0x005A, "latin"),
            (0x0061, 0x007A, "latin"),
            (0x00AA, 0x00AA, "latin"),
            (0x00BA, 0x00BA, "latin"),
            (0x00C0, 0x02AF, "latin"),
            (0x1D00, 0x1DBF, "latin"),
            (0x1E00, 0x1EFF, "latin"),
            (0x2C60, 0x2C7F, "latin"),
            (0xA720, 0xA7FF, "latin"),
            (0xFF21, 0xFF3A, "latin"),
            (0xFF41, 0xFF5A, "latin"),
            (0x0370, 0x03FF, "greek"),
            (0x1F00, 0x1FFF, "greek"),
            (0x0400, 0x052F, "cyrillic"),
            (0x1C80, 0x1C8F, "cyrillic"),
            (0x2DE0, 0x2DFF, "cyrillic"),
            (0xA640, 0xA69F, "cyrillic"),
            (0x0530, 0x058F, "armenian"),
            (0x0590, 0x05FF, "hebrew"),
            (0xFB1D, 0xFB4F, "hebrew"),
            (0x0600, 0x06FF, "arabic"),
            (0x0750, 0x077F, "arabic"),
            (0x08A0, 0x08FF, "arabic"),
            (0xFB50, 0xFDFF, "arabic"),
            (0xFE70, 0xFEFF, "arabic"),
            (0x0900, 0x097F, "devanagari"),
            (0xA8E0, 0xA8FF, "devanagari"),
            (0x0980, 0x09FF, "bengali"),
            (0x0A00, 0x0A7F, "gurmukhi"),
            (0x0A80, 0x0AFF, "gujarati"),
            (0x0B00, 0x0B7F, "oriya"),
            (0x0B80, 0x0BFF, "tamil"),
            (0x0C00, 0x0C7F, "telugu"),
            (0x0C80, 0x0CFF, "kannada"),
            (0x0D00, 0x0D7F, "malayalam"),
            (0x0D80, 0x0DFF, "sinhala"),
            (0x0E00, 0x0E7F, "thai"),
            (0x0E80, 0x0EFF, "lao"),
            (0x1000, 0x109F, "myanmar"),
            (0x10A0, 0x10FF, "georgian"),
            (0x1780, 0x17FF, "khmer"),
            (0x1100, 0x11FF, "hangul"),
            (0x3130, 0x318F, "hangul"),
            (0xA960, 0xA97F, "hangul"),
            (0xAC00, 0xD7AF, "hangul"),
            (0x3040, 0x309F, "hiragana"),
            (0x30A0, 0x30FF, "katakana"),
            (0x31F0, 0x31FF, "katakana"),
            (0xFF66, 0xFF9F, "katakana"),
            (0x2E80, 0x2FDF, "han"),
            (0x3005, 0x3007, "han"),
            (0x3400, 0x4DBF, "han"),
            (0x4E00, 0x9FFF, "han"),
            (0xF900, 0xFAFF, "han"),
            (0x20000, 0x3134F, "han"),
        ]
    )
)
_STARTS = [r[0] for r in _RANGES]


def script_of(char: str) -> str:
    """The script of one character: a name from the table, "common" for non-letters, else "unknown"."""
    if not (char.isalpha() or _is_mark(char)):
        return "common"
    code = ord(char)
    i = bisect.bisect_right(_STARTS, code) - 1
    if i >= 0 and _RANGES[i][0] <= code <= _RANGES[i][1]:
        return _RANGES[i][2]
    return "unknown"


def scripts_in(text: str) -> tuple[str, ...]:
    """The sorted scripts of the letters in `text` (empty when it holds no letters)."""
    found = {script_of(c) for c in set(text)}
    found.discard("common")
    return tuple(sorted(found))


def _is_mark(char: str) -> bool:
    # Combining marks (Devanagari vowel signs, Thai tone marks) belong to their base letter's script.
    return unicodedata.category(char).startswith("M")
