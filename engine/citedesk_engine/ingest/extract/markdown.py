"""Markdown: the source text is kept as written; headings split it into sections, each named with the
headings it stands under."""

from __future__ import annotations

import bisect
import re

from markdown_it import MarkdownIt

from .base import ExtractedDocument, Segment, StructureNode
from .guards import decode_text

# A line that is no body text: an ATX heading, a setext heading's underline or a thematic break.
_NOT_BODY = re.compile(r"^ {0,3}(?:#{1,6}(?:\s|$)|=+\s*$|-+\s*$|\*+\s*$)")


def extract_markdown(data: bytes, extension: str) -> ExtractedDocument:
    text = decode_text(data, extension)
    line_starts = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            line_starts.append(i + 1)
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    headings: list[tuple[int, int, str]] = []  # char start, level, label
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.map:
            label = tokens[i + 1].content.strip() if i + 1 < len(tokens) else ""
            headings.append((line_starts[token.map[0]], int(token.tag[1:]), label))
    nodes = []
    for i, (start, level, label) in enumerate(headings):
        end = next((s for s, lvl, _ in headings[i + 1 :] if lvl <= level), len(text))
        nodes.append(StructureNode("heading", label, level, start, end))
    paths = _heading_paths(headings)
    # A heading with nothing under it before the next heading opens that heading's segment: in a
    # changelog, "## 0.25.0 (11th September, 2023)" was a passage of its own and "### Removed" one
    # without the version, cited as "Removed" like every version's (a window session).
    cuts = [0]
    for s, _, _ in headings:
        if s > 0 and _has_body(text[cuts[-1] : s]):
            cuts.append(s)
    cuts.append(len(text))
    segments = tuple(
        Segment(a, b, label=_label_at(text, a, b, headings, paths))
        for a, b in zip(cuts, cuts[1:], strict=False)
        if text[a:b].strip()
    )
    return ExtractedDocument(text=text, kind="markdown", segments=segments, structure=tuple(nodes))


def _has_body(text: str) -> bool:
    """Text other than headings, rules and blank lines."""
    return any(line.strip() and not _NOT_BODY.match(line) for line in text.splitlines())


def _heading_paths(headings: list[tuple[int, int, str]]) -> list[str]:
    """Each heading named with those it stands under ("0.25.0 (11th September, 2023) › Removed": every
    version of a changelog has a "Removed"). A document's one top heading, its title, is left out."""
    titled = sum(1 for _, level, _ in headings if level == 1) == 1
    stack: list[tuple[int, str]] = []
    paths = []
    for _, level, label in headings:
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, label))
        names = [name for lvl, name in stack if not (titled and lvl == 1 and len(stack) > 1)]
        paths.append(" › ".join(names))
    return paths


def _label_at(text: str, start: int, end: int, headings: list[tuple[int, int, str]], paths: list[str]) -> str:
    """A segment's label: the path of the last heading it opens with, before its first body line."""
    label = ""
    for index in range(bisect.bisect_left(headings, (start,)), len(headings)):
        at = headings[index][0]
        if at >= end or _has_body(text[start:at]):
            break
        label = paths[index]
    return label
