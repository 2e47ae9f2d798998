from __future__ import annotations

from citedesk_engine.ingest.chunk import chunk, count_tokens
from citedesk_engine.ingest.extract import Segment
from hypothesis import given, settings
from hypothesis import strategies as st

SENTENCE = "The river rises in spring and floods the lower fields near the old mill. "


def test_short_segment_is_one_trimmed_unit() -> None:
    text = "  \n Hello there, world.  \n"
    pieces = chunk(text, [Segment(0, len(text))], max_tokens=50, overlap=5)
    assert [text[p.start : p.end] for p in pieces] == ["Hello there, world."]


def test_prefers_paragraph_then_line_then_sentence_boundaries() -> None:
    para = SENTENCE * 3  # 45 tokens
    text = para + "\n\n" + para + "\n\n" + para
    pieces = chunk(text, [Segment(0, len(text))], max_tokens=100, overlap=0)
    assert [text[p.start : p.end] for p in pieces][0] == (para + "\n\n" + para).strip()
    lines = "\n".join(SENTENCE.strip() for _ in range(6))
    pieces = chunk(lines, [Segment(0, len(lines))], max_tokens=40, overlap=0)
    assert all(
        lines[p.start : p.end] == SENTENCE.strip() * 1 or "\n" in lines[p.start : p.end] for p in pieces
    )
    assert all(lines[p.end - 1] == "." for p in pieces)
    prose = SENTENCE * 8
    pieces = chunk(prose, [Segment(0, len(prose))], max_tokens=40, overlap=0)
    assert all(prose[p.start : p.end].endswith(".") for p in pieces)


def test_falls_back_to_word_boundaries_without_punctuation() -> None:
    text = " ".join(f"word{i}" for i in range(500))
    pieces = chunk(text, [Segment(0, len(text))], max_tokens=100, overlap=10)
    for p in pieces:
        passage = text[p.start : p.end]
        assert count_tokens(passage) <= 100
        assert not passage.startswith(" ") and (p.end == len(text) or text[p.end] == " ")
    # 10 words of overlap between neighbours
    first, second = (
        text[pieces[0].start : pieces[0].end].split(),
        text[pieces[1].start : pieces[1].end].split(),
    )
    assert first[-10:] == second[:10]


def test_overlap_starts_at_a_sentence_when_it_can() -> None:
    prose = SENTENCE * 10
    pieces = chunk(prose, [Segment(0, len(prose))], max_tokens=60, overlap=20)
    for p in pieces:
        assert prose[p.start : p.end].startswith("The river")
    assert pieces[1].start < pieces[0].end  # they do overlap


def test_units_never_cross_segments_and_carry_them() -> None:
    text = "Page one text.\n\nPage two text."
    segments = [Segment(0, 14, page=1), Segment(16, len(text), page=2, label="Two")]
    pieces = chunk(text, segments, max_tokens=200, overlap=0)
    assert [(text[p.start : p.end], p.segment.page) for p in pieces] == [
        ("Page one text.", 1),
        ("Page two text.", 2),
    ]


def test_tables_cut_between_rows() -> None:
    rows = "\n".join(f"Item {i} | {i * 10} | Finance department" for i in range(100))
    pieces = chunk(rows, [Segment(0, len(rows), kind="table", header="Item | Amount | Owner")], 60, 0)
    assert len(pieces) > 3
    for p in pieces:
        assert rows[p.start : p.end].startswith("Item ") and rows[p.end - 1] == "t"


def test_cjk_is_counted_per_character() -> None:
    text = "员工不得披露机密信息。" * 40
    pieces = chunk(text, [Segment(0, len(text))], max_tokens=50, overlap=0)
    assert len(pieces) >= 8
    assert all(text[p.start : p.end].endswith("。") for p in pieces[:-1])


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet=st.sampled_from(list("ab c.\n\n,é漢")), min_size=0, max_size=3000),
    st.integers(min_value=8, max_value=120),
    st.integers(min_value=0, max_value=40),
)
def test_invariants(text: str, max_tokens: int, overlap: int) -> None:
    pieces = chunk(text, [Segment(0, len(text))], max_tokens, overlap)
    covered = set()
    previous_start = -1
    for p in pieces:
        passage = text[p.start : p.end]
        assert passage and passage == passage.strip()
        assert count_tokens(passage) <= max_tokens
        assert p.start > previous_start  # always progresses
        previous_start = p.start
        covered.update(range(p.start, p.end))
    # Every non-space character belongs to some unit: nothing is lost.
    assert all(i in covered for i, c in enumerate(text) if not c.isspace())


def test_a_piece_without_a_word_is_no_unit() -> None:
    """An equation number in a one-cell table of a Word file ("(1)") is no passage to cite."""
    from citedesk_engine.ingest.units import build_units

    text = "The formula editor is called Math.\n\n(1)\n\nFormulas are objects."
    segments = [Segment(0, 34), Segment(36, 39, kind="table", header="(1)"), Segment(41, len(text))]
    units = build_units("/docs/guide.docx", "v1", text, chunk(text, segments, 200, 0), [])
    assert [u.passage for u in units] == ["The formula editor is called Math.", "Formulas are objects."]
    assert [u.ordinal for u in units] == [0, 1] and units[1].unit_id == "v1-00001"


def test_rows_of_figures_under_a_header_with_words_are_units() -> None:
    """vega's us-employment.csv: 120 rows of dates and figures under a header of sector names. Every
    block but the first (which holds the header) has no letter, and all of them were dropped."""
    from citedesk_engine.ingest.units import build_units

    header = "month,nonfarm,private,construction"
    rows = [
        f"20{y:02d}-{m:02d}-01,{135000 + y * 12 + m},{113000 + m},{7600 - y}"
        for y in range(6, 16)
        for m in range(1, 13)
    ]
    text = header + "\n" + "\n".join(rows)
    segments = [Segment(0, len(text), kind="table", header=header)]
    units = build_units("/docs/us-employment.csv", "v1", text, chunk(text, segments, 200, 20), [])
    assert len(units) > 3
    assert any("2012-12-01," in u.passage for u in units[1:])
    assert all(u.context == header for u in units)
