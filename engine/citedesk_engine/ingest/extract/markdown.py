"""Markdown: the source text is kept as written; headings split it into sections."""

from __future__ import annotations

from markdown_it import MarkdownIt

from .base import ExtractedDocument, Segment, StructureNode
from .guards import decode_text


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
    cuts = [0] + [s for s, _, _ in headings if s > 0] + [len(text)]
    labels = {s: label for s, _, label in headings}
    segments = tuple(
        Segment(a, b, label=labels.get(a, ""))
        for a, b in zip(cuts, cuts[1:], strict=False)
        if text[a:b].strip()
    )
    return ExtractedDocument(text=text, kind="markdown", segments=segments, structure=tuple(nodes))
