"""Checks that run before a parser sees the bytes: emptiness, binary content, encodings, zip bombs."""

from __future__ import annotations

import codecs
import io
import zipfile

import charset_normalizer

from ...errors import ExtractionError

_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"%PDF-", "PDF"),
    (b"PK\x03\x04", "a zip archive (an Office document?)"),
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"\x7fELF", "a program (ELF)"),
    (b"MZ", "a Windows program"),
    (b"\xd0\xcf\x11\xe0", "an old Office document (.doc/.xls/.ppt): save it in the newer format"),
    (b"\x1f\x8b", "gzip-compressed data"),
)
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


# Most used first: the tie-break among single-byte code pages that decode a sample equally well.
_COMMON_ENCODINGS = ("utf_8", "cp1252", "latin_1", "cp1251", "koi8_r", "cp1250", "shift_jis", "gb18030")


def require_content(data: bytes) -> None:
    if not data.strip():
        raise ExtractionError("the file is empty: there is no text to index")


def decode_text(data: bytes, extension: str) -> str:
    """Decode a text file whose encoding is detected, not assumed; binary content is refused."""
    require_content(data)
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return _normalise_newlines(data.decode(encoding, errors="replace"))
    _refuse_binary(data, extension)
    try:
        return _normalise_newlines(data.decode("utf-8"))
    except UnicodeDecodeError:
        pass
    encoding = _guess_encoding(data[:1_000_000])
    if encoding is None:
        raise ExtractionError(
            f"cannot tell the text encoding of this {extension} file; save it as UTF-8 and add it again"
        )
    return _normalise_newlines(data.decode(encoding, errors="replace"))


def _guess_encoding(sample: bytes) -> str | None:
    """charset-normalizer's best guess; among equally good guesses, the most widely used encoding.

    Short Western European text decodes equally cleanly as cp1250, cp1252 and others; without the
    tie-break a French letter would come out with Czech accents.
    """
    matches = list(charset_normalizer.from_bytes(sample))
    if not matches:
        return None
    best = matches[0]
    tied = [m.encoding for m in matches if (m.chaos, m.coherence) == (best.chaos, best.coherence)]
    preferred = next((e for e in _COMMON_ENCODINGS if e in tied), None)
    return preferred or best.encoding


def _refuse_binary(data: bytes, extension: str) -> None:
    head = data[:8192]
    for magic, what in _MAGIC:
        if head.startswith(magic):
            raise ExtractionError(
                f"the file is named {extension} but holds {what}, not text; give it the right extension"
            )
    controls = sum(1 for b in head if b < 32 and b not in (9, 10, 12, 13, 27))
    if b"\x00" in head or controls > len(head) * 0.1:
        raise ExtractionError(f"the file is named {extension} but holds binary data, not text")


def _normalise_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")


def check_zip(data: bytes, *, max_unzipped: int, max_ratio: int, what: str) -> None:
    """Refuse an Office file that is not a zip or would expand absurdly, before any parser inflates it."""
    require_content(data)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise ExtractionError(f"not a readable {what} file (it is damaged or not a {what}): {exc}") from exc
    total = sum(m.file_size for m in members)
    packed = max(1, sum(m.compress_size for m in members))
    if total > max_unzipped or (total > 10_000_000 and total / packed > max_ratio):
        raise ExtractionError(
            f"refused: this {what} would expand to {total / 1e6:,.0f} MB from {len(data) / 1e6:,.1f} MB "
            "(a zip bomb or a damaged file)"
        )
