"""Plain text, source code and CSV: decoded with a detected encoding, kept as written."""

from __future__ import annotations

import re

from .base import ExtractedDocument, Segment, StructureNode
from .guards import decode_text

# A top-level definition in the common languages: def/class (Python), function (JS), fn (Rust)...
_SYMBOL = re.compile(
    r"^(?:export\s+)?(?:pub\s+)?(?:async\s+)?"
    r"(?:def|class|function|fn|func|interface|struct|enum|trait|impl|module|type)\s+([A-Za-z_][\w.]*)",
    re.MULTILINE,
)


def extract_plain(data: bytes, extension: str) -> ExtractedDocument:
    text = decode_text(data, extension)
    return ExtractedDocument(text=text, kind="text", segments=(Segment(0, len(text)),))


def extract_code(data: bytes, extension: str) -> ExtractedDocument:
    text = decode_text(data, extension)
    starts = [(m.start(), m.group(1)) for m in _SYMBOL.finditer(text)]
    nodes = tuple(
        StructureNode("symbol", name, 1, start, starts[i + 1][0] if i + 1 < len(starts) else len(text))
        for i, (start, name) in enumerate(starts)
    )
    # Each top-level symbol is its own segment so no unit mixes two functions.
    cuts = [0] + [s for s, _ in starts if s > 0] + [len(text)]
    segments = tuple(Segment(a, b, kind="code") for a, b in zip(cuts, cuts[1:], strict=False) if b > a)
    return ExtractedDocument(text=text, kind="code", segments=segments, structure=nodes)


def extract_csv(data: bytes, extension: str) -> ExtractedDocument:
    text = decode_text(data, extension)
    header = text.lstrip("\n").split("\n", 1)[0].strip()
    return ExtractedDocument(
        text=text, kind="csv", segments=(Segment(0, len(text), kind="table", header=header),)
    )
