"""HTML: visible text block by block, headings and tables kept; scripts and styles dropped."""

from __future__ import annotations

import re

import lxml.html
from lxml import etree

from ...errors import ExtractionError
from ...types import DocumentMeta
from .base import DocumentBuilder, ExtractedDocument, file_meta
from .guards import decode_text

_SKIP = {"script", "style", "noscript", "template", "head", "svg", "iframe", "object"}
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_BLOCKS = {"p", "li", "pre", "blockquote", "dt", "dd", "figcaption", "caption", "address", "summary"}
# XHTML (DocBook output, e-books) opens with an XML declaration naming its encoding; the text is already
# decoded, and lxml refuses a str that still declares one.
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>", re.IGNORECASE)
_CONTAINERS = {"div", "section", "article", "main", "body", "aside", "header", "footer", "nav", "form"}


def extract_html(data: bytes, extension: str) -> ExtractedDocument:
    text = _XML_DECLARATION.sub("", decode_text(data, extension), count=1)
    try:
        root = lxml.html.document_fromstring(text)
    except (etree.ParserError, ValueError) as exc:
        raise ExtractionError(f"not readable HTML: {exc}") from exc
    builder = DocumentBuilder("html")
    builder.meta = _page_meta(root)
    body = root.find("body") if root.find("body") is not None else root
    _drop_hidden(body, builder)
    _drop_permalinks(body)
    _drop_navigation(body)
    _walk(body, builder)
    doc = builder.build()
    if not doc.text.strip():
        raise ExtractionError("the HTML page has no visible text")
    return doc


def _page_meta(root: lxml.html.HtmlElement) -> DocumentMeta:
    """A page's title and authors: the citation tags journals and repositories write for Google Scholar
    (citation_title, citation_author, citation_publication_date), else <title> and the author meta."""

    def named(*names: str) -> list[str]:
        wanted = {n.lower() for n in names}
        return [
            (m.get("content") or "").strip()
            for m in root.iter("meta")
            if (m.get("name") or m.get("property") or "").lower() in wanted
            and (m.get("content") or "").strip()
        ]

    titles = named("citation_title", "dc.title") or [
        (t.text_content() or "").strip() for t in root.iter("title")
    ]
    authors = named("citation_author", "dc.creator") or named("author")
    dates = named("citation_publication_date", "citation_date", "dc.date")
    return file_meta(titles[0] if titles else "", authors, dates[0] if dates else None)


# An element no reader sees: its text could tell a model what to answer, and no one would see it.
_HIDING_STYLE = re.compile(
    r"display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?![.\d]*[1-9])|opacity\s*:\s*0(?![.\d]*[1-9])",
    re.IGNORECASE,
)


def _hidden(element: lxml.html.HtmlElement) -> bool:
    return element.get("hidden") is not None or bool(_HIDING_STYLE.search(element.get("style") or ""))


def _drop_permalinks(body: lxml.html.HtmlElement) -> None:
    """The "¶" or "#" links documentation generators put after each heading (Sphinx's "headerlink",
    MkDocs's and Docusaurus's "anchor"): they are navigation, not text."""
    for link in list(body.iter("a")):
        classes = set((link.get("class") or "").split())
        if classes & {"headerlink", "anchor", "anchorjs-link", "hash-link", "permalink"} or (
            link.text_content().strip() in {"¶", "#", "§"} and (link.get("href") or "").startswith("#")
        ):
            link.drop_tree()


# The navigation documentation generators write around a page's text: DocBook's table of contents and
# its header and footer links, Sphinx's sidebar and "related" bars, <nav> and role="navigation".
_NAVIGATION_CLASSES = {
    "toc",
    "navheader",
    "navfooter",
    "sphinxsidebar",
    "related",
    "breadcrumb",
    "breadcrumbs",
    "mobile-nav",
}


def _drop_navigation(body: lxml.html.HtmlElement) -> None:
    """Navigation is not the page's text: a table of contents ("7.12. How do I put a package on
    hold?" as a list of links) was a passage of the Debian FAQ and offered as the closest passage to
    a question its section answers (a window session), and Sphinx's sidebar repeats the page's
    headings. Only elements that say they are navigation are dropped."""
    found = [
        e
        for e in body.iter()
        if isinstance(e.tag, str)
        and (
            e.tag == "nav"
            or (e.get("role") or "").lower() == "navigation"
            or set((e.get("class") or "").split()) & _NAVIGATION_CLASSES
        )
    ]
    for element in found:
        if element.getparent() is not None and not any(a in found for a in element.iterancestors()):
            element.drop_tree()


def _drop_hidden(body: lxml.html.HtmlElement, builder: DocumentBuilder) -> None:
    hidden = [e for e in body.iter() if isinstance(e.tag, str) and _hidden(e)]
    for element in hidden:
        if not any(a in hidden for a in element.iterancestors()):
            builder.hidden(element.text_content())
            element.drop_tree()  # its tail, text after it that is shown, stays


_BLOCK_CHILDREN = _BLOCKS | _CONTAINERS | set(_HEADINGS) | {"table", "ul", "ol", "dl", "details", "figure"}


def _holds_blocks(element: lxml.html.HtmlElement) -> bool:
    """Whether an element has a block among its children (its own text is then a paragraph too)."""
    return any(isinstance(child.tag, str) and child.tag in _BLOCK_CHILDREN for child in element)


def _walk(element: lxml.html.HtmlElement, builder: DocumentBuilder) -> None:
    # Loose text directly inside a container (text not wrapped in <p>) is a paragraph of its own.
    if element.text and element.text.strip():
        builder.paragraph(element.text)
    for child in element:
        _read(child, builder)
        if child.tail and child.tail.strip():
            builder.paragraph(child.tail)


def _read(child: lxml.html.HtmlElement, builder: DocumentBuilder) -> None:
    """One element of a container: a heading, a table, a paragraph, or a container walked."""
    tag = child.tag if isinstance(child.tag, str) else ""
    if tag in _SKIP or not tag:
        return
    if tag in _HEADINGS:
        builder.heading(child.text_content(), _HEADINGS[tag])
    elif tag == "dl" and _defines_api(child):
        _read_definitions(child, builder)
    elif tag == "table":
        rows = [[cell.text_content() for cell in row if cell.tag in ("td", "th")] for row in child.iter("tr")]
        builder.table(rows)
    elif tag in _BLOCKS and tag != "pre" and _holds_blocks(child):
        # A block holding blocks (Sphinx's <dd> of a class, holding each method's <dl>; a list item
        # holding a nested list) is read block by block: as one paragraph, Python's logging reference
        # ran a method's signature into the last sentence of the method before it, and that sentence
        # was quoted as the answer's evidence.
        _walk_mixed(child, builder)
    elif tag in _BLOCKS:
        builder.paragraph(" ".join(child.text_content().split()) if tag != "pre" else child.text_content())
    elif tag in _CONTAINERS or tag in ("ul", "ol", "dl", "details", "figure", "center"):
        _walk(child, builder)
    else:
        builder.paragraph(" ".join(child.text_content().split()))


# The kinds of API object a documentation generator writes as a definition list: Sphinx's
# <dl class="py function"><dt class="sig sig-object py" id="json.loads">, and the same for classes,
# exceptions, methods, properties, attributes, C functions and macros, and a module's data (Flask's
# configuration keys: "What is the default value of MAX_CONTENT_LENGTH?" was answered 4093,
# MAX_COOKIE_SIZE's default in the same passage).
_API_KINDS = {
    "function",
    "class",
    "exception",
    "method",
    "classmethod",
    "staticmethod",
    "property",
    "decorator",
    "macro",
    "data",
    "attribute",
}


def _defines_api(dl: lxml.html.HtmlElement) -> bool:
    """A definition list of one API object: its class names a kind, its term is a signature. A
    class's methods and attributes are definitions too, sections within the class's (Flask's class
    Flask holds two hundred of them: a passage in the middle of it named no method)."""
    return bool(set((dl.get("class") or "").split()) & _API_KINDS) and any(
        "sig" in (dt.get("class") or "").split() for dt in dl.findall("dt")
    )


def _read_definitions(dl: lxml.html.HtmlElement, builder: DocumentBuilder) -> None:
    """An API object's signature is the heading of its description: "json.loads(s, *, cls=None,
    ...)" and the paragraphs that say what it does are one section, so no passage holds a
    description without the name it describes. Python's json reference put "If the data being
    deserialized is not a valid JSON document, a JSONDecodeError will be raised." in a passage that
    began after json.loads's signature, and "What exception does json.loads raise?" was refused. The
    section is named by the object's name, which a question writes and the outline can match."""
    level = builder.heading_depth() + 1
    for child in dl:
        tag = child.tag if isinstance(child.tag, str) else ""
        if tag == "dt":
            builder.heading(child.text_content(), level, _object_name(child))
        elif tag == "dd" and _holds_blocks(child):
            _walk_mixed(child, builder)
        elif tag == "dd":
            _read(child, builder)
    builder.end_heading(level)


_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")


def _object_name(dt: lxml.html.HtmlElement) -> str:
    """The full name of the object a signature defines: Sphinx's anchor ("json.loads", and
    "json.JSONDecoder.decode" for "decode(s)" in its class), without the C domain's "c."
    ("c.PyList_New"); "" when the anchor is no name the signature writes (the signature is then the
    label)."""
    anchor = (dt.get("id") or "").removeprefix("c.")
    if not _DOTTED.fullmatch(anchor) or anchor.rsplit(".", 1)[-1] not in dt.text_content():
        return ""
    return anchor


def _walk_mixed(element: lxml.html.HtmlElement, builder: DocumentBuilder) -> None:
    """A block holding blocks: each run of text and inline elements between its blocks is one
    paragraph ("Item with <a>a link</a>" before a nested list), each block read as `_read` reads it."""
    run = [element.text or ""]
    for child in element:
        tag = child.tag if isinstance(child.tag, str) else ""
        if tag in _BLOCK_CHILDREN:
            builder.paragraph(" ".join("".join(run).split()))
            _read(child, builder)
            run = [child.tail or ""]
        else:
            if tag and tag not in _SKIP:
                run.append(child.text_content())
            run.append(child.tail or "")
    builder.paragraph(" ".join("".join(run).split()))
