"""A persistent tantivy full-text index (BM25) over the same evidence units, stemmed per language.

A unit's text goes into the field of its document's language: `text_de` (German Snowball stemmer),
`text_fr`, ... for the languages tantivy stems, and `text` (English stemmer) for English, for
languages without a stemmer and for text whose language was not determined. A question is searched
in `text` and in the fields of the languages given (those the library holds), each field stemming
the question's words its own way, so "Rechte" finds "Recht" and "droits" finds "droit".

An index written before these fields existed (one `text` field) no longer matches the schema: it is
built again from the units the manifest holds (`needs_rebuild`), behind a marker file, so that a
crash midway starts the rebuild over at the next opening instead of leaving rows out.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..identifiers import identifiers
from ..types import EvidenceUnit

_TERM = re.compile(r"\w+", re.UNICODE)
# tantivy's Snowball stemmers, by ISO 639-1 code (English is the `text` field's en_stem).
STEMMERS = {
    "ar": "arabic",
    "da": "danish",
    "de": "german",
    "el": "greek",
    "es": "spanish",
    "fi": "finnish",
    "fr": "french",
    "hu": "hungarian",
    "it": "italian",
    "nl": "dutch",
    "no": "norwegian",
    "pt": "portuguese",
    "ro": "romanian",
    "ru": "russian",
    "sv": "swedish",
    "ta": "tamil",
    "tr": "turkish",
}
_DEFAULT_FIELD = "text"
_REBUILDING = "REBUILDING"  # present while the index is being built again from the manifest


def field_for(language: str) -> str:
    """The field that holds (and searches) text in `language`."""
    return f"text_{language}" if language in STEMMERS else _DEFAULT_FIELD


class LexicalIndex:
    def __init__(self, folder: Path) -> None:
        import tantivy

        self._tantivy = tantivy
        self._folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        schema = self._schema()
        try:
            self._index = tantivy.Index(schema, path=str(folder), reuse=True)
        except ValueError as exc:
            if "schema does not match" not in str(exc):
                raise
            # Written by an earlier CiteDesk (one English field): built again from the manifest.
            shutil.rmtree(folder)
            folder.mkdir()
            (folder / _REBUILDING).touch()
            self._index = tantivy.Index(schema, path=str(folder), reuse=True)
        for language, name in STEMMERS.items():
            analyzer = (
                tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
                .filter(tantivy.Filter.remove_long(40))
                .filter(tantivy.Filter.lowercase())
                .filter(tantivy.Filter.stemmer(name))
                .build()
            )
            self._index.register_tokenizer(f"stem_{language}", analyzer)
        self._writer: object | None = None

    def _schema(self):  # type: ignore[no-untyped-def]
        builder = self._tantivy.SchemaBuilder()
        builder.add_text_field("unit_id", stored=True, tokenizer_name="raw")
        builder.add_text_field("document", stored=True, tokenizer_name="raw")
        builder.add_text_field("version", stored=False, tokenizer_name="raw")
        builder.add_text_field(_DEFAULT_FIELD, stored=False, tokenizer_name="en_stem")
        for language in STEMMERS:
            builder.add_text_field(field_for(language), stored=False, tokenizer_name=f"stem_{language}")
        return builder.build()

    @property
    def needs_rebuild(self) -> bool:
        """True while the index must be built again from the manifest (`rebuild`)."""
        return (self._folder / _REBUILDING).exists()

    def rebuild(self, documents: Iterable[tuple[Sequence[EvidenceUnit], str]]) -> int:
        """Empty the index and add every (units, language) given; the marker goes once all is in."""
        writer = self._get_writer()
        writer.delete_all_documents()  # type: ignore[attr-defined]
        writer.commit()  # type: ignore[attr-defined]
        added = 0
        for units, language in documents:
            self._write(units, language)
            added += len(units)
        writer.commit()  # type: ignore[attr-defined]
        self._index.reload()
        (self._folder / _REBUILDING).unlink(missing_ok=True)
        return added

    def _get_writer(self):  # type: ignore[no-untyped-def]
        if self._writer is None:
            self._writer = self._index.writer(heap_size=50_000_000, num_threads=1)
        return self._writer

    def add(self, units: Sequence[EvidenceUnit], language: str = "") -> None:
        """Add and commit: the rows are durable when this returns. `language` is the ISO 639-1 code
        of the units' document ("und" or "" when not determined)."""
        self._write(units, language)
        self._get_writer().commit()  # type: ignore[attr-defined]
        self._index.reload()

    def _write(self, units: Sequence[EvidenceUnit], language: str) -> None:
        writer = self._get_writer()
        field = field_for(language)
        for unit in units:
            writer.add_document(
                self._tantivy.Document(
                    unit_id=unit.unit_id,
                    document=unit.document,
                    version=unit.version,
                    **{field: unit.index_text},
                )
            )

    def delete_versions(self, versions: Sequence[str]) -> None:
        if not versions:
            return
        writer = self._get_writer()
        for version in versions:
            writer.delete_documents_by_term("version", version)
        writer.commit()
        self._index.reload()

    def search(
        self,
        query: str,
        limit: int,
        versions: frozenset[str] | None = None,
        languages: Iterable[str] = (),
    ) -> list[tuple[str, float]]:
        """BM25 over the units' text: (unit_id, score), best first. Any words, no query syntax; a
        version, date or dotted name of the question ("0.28.1") also as a phrase. Searched
        in the English field and in those of `languages` (the library's). With `versions`, only units
        of those document versions (a scoped question), filtered in the index."""
        terms = [t.lower() for t in _TERM.findall(query)]
        if not terms or limit <= 0 or versions is not None and not versions:
            return []
        fields = list(dict.fromkeys([_DEFAULT_FIELD, *(field_for(code) for code in sorted(languages))]))
        # A version, date or dotted name of the question is searched again as a phrase of its parts,
        # which only the units writing it match, weighted twice: it names one thing, where its parts
        # are scattered over many ("0.28.1": "August 28", "HTTP/1.1").
        phrases = [f'"{" ".join(_TERM.findall(name))}"^2' for name in sorted(identifiers(query))]
        parsed = self._index.parse_query(" ".join(terms + phrases), fields)
        if versions is not None:
            query_ = self._tantivy.Query
            within = query_.term_set_query(self._index.schema, "version", sorted(versions))
            occur = self._tantivy.Occur
            parsed = query_.boolean_query([(occur.Must, parsed), (occur.Must, within)])
        searcher = self._index.searcher()
        hits = searcher.search(parsed, limit).hits
        return [(searcher.doc(address)["unit_id"][0], float(score)) for score, address in hits]

    def writes_like(self, word: str) -> bool:
        """Whether any unit writes `word` or a word spelled like it: after stemming, one edit away
        (a letter added, dropped, changed, or two swapped) for words of up to five letters, two for
        longer ones ("Ghandi" finds "Gandhi", "Celeron" finds "Céloron"), in any language's field."""
        terms = _TERM.findall(word.lower())
        if not terms:
            return True
        distance = 1 if len(word) <= 5 else 2
        fields = [_DEFAULT_FIELD, *(field_for(code) for code in STEMMERS)]
        parsed = self._index.parse_query(
            " ".join(terms), fields, fuzzy_fields={field: (False, distance, True) for field in fields}
        )
        return self._index.searcher().search(parsed, 1).count > 0

    def count(self) -> int:
        self._index.reload()
        return int(self._index.searcher().num_docs)

    def close(self) -> None:
        if self._writer is not None:
            self._writer.wait_merging_threads()  # type: ignore[attr-defined]
            self._writer = None
