"""Score fusion and blending on small hand-checked cases (RRF has its conformance vectors)."""

from __future__ import annotations

import pytest
from citedesk_engine.retrieve.fusion import blend, minmax, score_fuse
from hypothesis import given
from hypothesis import strategies as st


def test_minmax_scales_to_the_unit_interval() -> None:
    assert minmax([10.0, 5.0, 0.0]) == [1.0, 0.5, 0.0]
    assert minmax([3.0, 3.0]) == [1.0, 1.0]  # nothing to tell apart: all count fully
    assert minmax([-2.0]) == [1.0]
    assert minmax([]) == []


def test_score_fusion_by_hand() -> None:
    lists = {"lexical": [("a", 10.0), ("b", 5.0), ("c", 0.0)], "vector": [("b", 0.9), ("d", 0.5)]}
    fused = score_fuse(lists, {"lexical": 0.7, "vector": 0.3})
    # a: 0.7 x 1; b: 0.7 x 0.5 + 0.3 x 1; c and d: 0 (last of their lists), tied, by id
    assert [u for u, _ in fused] == ["a", "b", "c", "d"]
    assert [s for _, s in fused] == pytest.approx([0.7, 0.65, 0.0, 0.0])


def test_score_fusion_counts_a_repeated_unit_once_at_its_best() -> None:
    fused = dict(score_fuse({"lexical": [("a", 4.0), ("b", 2.0), ("a", 1.0), ("c", 0.0)]}, {"lexical": 1.0}))
    assert fused == pytest.approx({"a": 1.0, "b": 0.5, "c": 0.0})


def test_score_fusion_weights_decide_between_disagreeing_lists() -> None:
    lists = {"lexical": [("a", 8.0), ("b", 2.0)], "vector": [("b", 0.8), ("a", 0.4)]}
    assert score_fuse(lists, {"lexical": 0.7, "vector": 0.3})[0][0] == "a"
    assert score_fuse(lists, {"lexical": 0.3, "vector": 0.7})[0][0] == "b"
    with pytest.raises(ValueError, match="no fusion weight for the retriever 'vector'"):
        score_fuse(lists, {"lexical": 1.0})


@given(
    st.dictionaries(
        st.sampled_from(["lexical", "vector", "structure"]),
        st.lists(st.tuples(st.sampled_from("abcdefgh"), st.floats(-1e6, 1e6)), max_size=8),
    )
)
def test_score_fusion_keeps_every_unit_once_within_the_weights(lists) -> None:  # type: ignore[no-untyped-def]
    weights = {"lexical": 0.7, "vector": 0.3, "structure": 0.3}
    fused = score_fuse(lists, weights)
    assert sorted(u for u, _ in fused) == sorted({u for hits in lists.values() for u, _ in hits})
    assert all(-1e-9 <= s <= 1.3 + 1e-9 for _, s in fused)
    assert [s for _, s in fused] == sorted((s for _, s in fused), reverse=True)


def test_blend_by_hand() -> None:
    assert blend([0.9, 0.85, 0.2], [0.0, 1.0, 2.0], 0.3) == pytest.approx([0.7, 0.8, 0.3])
    assert blend([1.0, 2.0], [5.0, 1.0], 0.0) == [0.0, 1.0]
    assert blend([1.0, 2.0], [5.0, 1.0], 1.0) == [1.0, 0.0]
    with pytest.raises(ValueError, match="weight"):
        blend([1.0], [1.0], 1.5)
