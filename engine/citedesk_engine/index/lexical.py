"""A persistent tantivy full-text index (BM25) over the same evidence units."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from ..types import EvidenceUnit

_TERM = re.compile(r"\w+", re.UNICODE)


class LexicalIndex:
    def __init__(self, folder: Path) -> None:
        import tantivy

        self._tantivy = tantivy
        folder.mkdir(parents=True, exist_ok=True)
        builder = tantivy.SchemaBuilder()
        builder.add_text_field("unit_id", stored=True, tokenizer_name="raw")
        builder.add_text_field("document", stored=True, tokenizer_name="raw")
        builder.add_text_field("version", stored=False, tokenizer_name="raw")
        builder.add_text_field("text", stored=False, tokenizer_name="en_stem")
        self._index = tantivy.Index(builder.build(), path=str(folder), reuse=True)
        self._writer: object | None = None

    def _get_writer(self):  # type: ignore[no-untyped-def]
        if self._writer is None:
            self._writer = self._index.writer(heap_size=50_000_000, num_threads=1)
        return self._writer

    def add(self, units: Sequence[EvidenceUnit]) -> None:
        """Add and commit: the rows are durable when this returns."""
        writer = self._get_writer()
        for unit in units:
            writer.add_document(
                self._tantivy.Document(
                    unit_id=unit.unit_id, document=unit.document, version=unit.version, text=unit.index_text
                )
            )
        writer.commit()
        self._index.reload()

    def delete_versions(self, versions: Sequence[str]) -> None:
        if not versions:
            return
        writer = self._get_writer()
        for version in versions:
            writer.delete_documents_by_term("version", version)
        writer.commit()
        self._index.reload()

    def search(
        self, query: str, limit: int, versions: frozenset[str] | None = None
    ) -> list[tuple[str, float]]:
        """BM25 over the units' text: (unit_id, score), best first. Any words, no query syntax. With
        `versions`, only units of those document versions (a scoped question), filtered in the index."""
        terms = [t.lower() for t in _TERM.findall(query)]
        if not terms or limit <= 0 or versions is not None and not versions:
            return []
        parsed = self._index.parse_query(" ".join(terms), ["text"])
        if versions is not None:
            query_ = self._tantivy.Query
            within = query_.term_set_query(self._index.schema, "version", sorted(versions))
            occur = self._tantivy.Occur
            parsed = query_.boolean_query([(occur.Must, parsed), (occur.Must, within)])
        searcher = self._index.searcher()
        hits = searcher.search(parsed, limit).hits
        return [(searcher.doc(address)["unit_id"][0], float(score)) for score, address in hits]

    def count(self) -> int:
        self._index.reload()
        return int(self._index.searcher().num_docs)

    def close(self) -> None:
        if self._writer is not None:
            self._writer.wait_merging_threads()  # type: ignore[attr-defined]
            self._writer = None
