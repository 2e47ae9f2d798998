"""Retrieval: retrievers gated by signals, score (or reciprocal rank) fusion, reranking of the fused head."""

from .fusion import rrf_fuse

__all__ = ["rrf_fuse"]
