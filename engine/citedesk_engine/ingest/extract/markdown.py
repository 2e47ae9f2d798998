"""Markdown: the source text is kept as written; headings split it into sections, each named with the
headings it stands under."""

from __future__ import annotations

from markdown_it import MarkdownIt

from .base import ExtractedDocument, Segment, StructureNode
from .guards import decode_text

# Top-level blocks that are no body text: a heading's own tokens and a thematic break.
_NOT_BODY = frozenset({"heading_open", "inline", "heading_close", "hr"})


def extract_markdown(data: bytes, extension: str) -> ExtractedDocument:
    text = decode_text(data, extension)
    line_starts = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            line_starts.append(i + 1)
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    headings: list[tuple[int, int, str]] = []  # char start, level, label
    body_after: list[bool] = []  # whether body text follows each heading before the next one
    body_before = False  # before the first heading
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.map:
            label = tokens[i + 1].content.strip() if i + 1 < len(tokens) else ""
            headings.append((line_starts[token.map[0]], int(token.tag[1:]), label))
            body_after.append(False)
        elif token.level == 0 and token.type not in _NOT_BODY:
            if body_after:
                body_after[-1] = True
            else:
                body_before = True
    nodes = []
    for i, (start, level, label) in enumerate(headings):
        end = next((s for s, lvl, _ in headings[i + 1 :] if lvl <= level), len(text))
        nodes.append(StructureNode("heading", label, level, start, end))
    # A heading with nothing under it opens the next heading's section, which is named by the heading
    # that has the body: in a changelog, "## 0.25.0 (11th September, 2023)" was a passage of its own
    # and "### Removed" one without the version, cited as "Removed" like every version's (a window
    # session).
    paths = _heading_paths(headings)
    cuts, labels = [0], [""]
    body = body_before
    for i, (start, _, _) in enumerate(headings):
        if body and start > 0:
            cuts.append(start)
            labels.append("")
            body = False
        if not body:  # still in the headings the section opens with
            labels[-1] = paths[i]
        body = body or body_after[i]
    cuts.append(len(text))
    segments = tuple(
        Segment(a, b, label=label)
        for a, b, label in zip(cuts, cuts[1:], labels, strict=False)
        if text[a:b].strip()
    )
    return ExtractedDocument(text=text, kind="markdown", segments=segments, structure=tuple(nodes))


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
