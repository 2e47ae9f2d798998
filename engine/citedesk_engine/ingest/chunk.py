"""Split extracted text into unit spans that fit the embedder, cutting at the gentlest boundary.

Boundaries are tried in order: paragraph (blank line), line, sentence end, word. Spans never cross a
segment (page, section, slide, table; a PDF page whose sentence goes on into the next is one segment
with it), carry a small overlap, and are trimmed of surrounding white space, so every span is a
clean, byte-exact slice `text[start:end]`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .extract import Segment

# One token per word, per punctuation mark, and per CJK character: close to word-piece counts.
_TOKEN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|\w+|[^\w\s]", re.UNICODE)
_SENTENCE_END = re.compile(
    r"[.!?\u061f\u0964][\"'\u201d\u2019)\]]*\s+|[\u3002\uff01\uff1f][\"'\u201d\u2019)\]\u300d\u300f]*\s*"
)
_PARAGRAPH = re.compile(r"\n[ \t]*\n\s*")
_LINE = re.compile(r"\n")


@dataclass(frozen=True, slots=True)
class Chunk:
    start: int
    end: int
    segment: Segment


def count_tokens(text: str) -> int:
    return sum(1 for _ in _TOKEN.finditer(text))


def chunk(text: str, segments: Sequence[Segment], max_tokens: int, overlap: int) -> list[Chunk]:
    """Cut every segment into spans of at most `max_tokens` tokens, `overlap` tokens shared."""
    if max_tokens < 8:
        raise ValueError("max_tokens must be at least 8")
    overlap = max(0, min(overlap, max_tokens // 2))
    chunks: list[Chunk] = []
    for segment in segments:
        for start, end in _chunk_span(text, segment.start, segment.end, max_tokens, overlap, segment.kind):
            chunks.append(Chunk(start, end, segment))
    return chunks


def _chunk_span(
    text: str, lo: int, hi: int, max_tokens: int, overlap: int, kind: str
) -> list[tuple[int, int]]:
    tokens = [(m.start(), m.end()) for m in _TOKEN.finditer(text, lo, hi)]
    if not tokens:
        return []
    spans: list[tuple[int, int]] = []
    first = 0
    while first < len(tokens):
        last = min(first + max_tokens, len(tokens)) - 1
        start = tokens[first][0]
        if last == len(tokens) - 1:
            spans.append(_trim(text, start, tokens[last][1]))
            break
        # Cut no earlier than half a window in, so a boundary never yields a tiny unit.
        floor = tokens[first + max_tokens // 2][0]
        cut = _best_cut(text, floor, tokens[last + 1][0], kind)
        spans.append(_trim(text, start, cut))
        after_cut = _first_token_at(tokens, cut, first + 1)
        next_first = max(first + 1, after_cut - overlap)
        first = _sentence_aligned(text, tokens, next_first, after_cut)
    return [s for s in spans if s[1] > s[0]]


def _best_cut(text: str, floor: int, ceiling: int, kind: str) -> int:
    """The end of the last paragraph, line, sentence or word that ends in [floor, ceiling]."""
    window = text[floor:ceiling]
    candidates = [_PARAGRAPH, _LINE]
    if kind not in ("table", "code"):
        candidates.append(_SENTENCE_END)
    for pattern in candidates:
        last = None
        for match in pattern.finditer(window):
            last = match
        if last is not None:
            return floor + (last.end() if pattern is _SENTENCE_END else last.start())
    return ceiling


def _first_token_at(tokens: list[tuple[int, int]], position: int, minimum: int) -> int:
    index = minimum
    while index < len(tokens) and tokens[index][0] < position:
        index += 1
    return index


def _sentence_aligned(text: str, tokens: list[tuple[int, int]], first: int, limit: int) -> int:
    """Move an overlap start forward to a sentence or line start when one lies before `limit`."""
    if first >= limit or limit >= len(tokens):
        return min(first, len(tokens))
    window_start = tokens[first][0]
    window_end = tokens[limit][0]
    match = _SENTENCE_END.search(text, window_start, window_end) or _LINE.search(
        text, window_start, window_end
    )
    if match is None:
        return first
    return _first_token_at(tokens, match.end(), first)


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end
