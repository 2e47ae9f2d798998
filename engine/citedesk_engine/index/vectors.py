"""Evidence units with their vectors in LanceDB (cosine on L2-normalised vectors)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..types import Box, EvidenceUnit

TABLE = "units"


def _quote(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


class VectorStore:
    def __init__(self, folder: Path) -> None:
        import lancedb
        import pyarrow as pa

        self._pa = pa
        self._db = lancedb.connect(str(folder))
        self._table: Any = None
        if TABLE in self._db.list_tables().tables:
            self._table = self._db.open_table(TABLE)

    def _schema(self, dimension: int) -> Any:
        pa = self._pa
        return pa.schema(
            [
                pa.field("unit_id", pa.string()),
                pa.field("document", pa.string()),
                pa.field("version", pa.string()),
                pa.field("ordinal", pa.int32()),
                pa.field("passage", pa.string()),
                pa.field("context", pa.string()),
                pa.field("section", pa.string()),
                pa.field("char_start", pa.int64()),
                pa.field("char_end", pa.int64()),
                pa.field("page", pa.int32()),
                pa.field("boxes", pa.string()),
                pa.field("scripts", pa.string()),
                pa.field("vector", pa.list_(pa.float32(), dimension)),
            ]
        )

    def add(self, units: Sequence[EvidenceUnit], vectors: npt.NDArray[np.float32]) -> None:
        if not units:
            return
        pa = self._pa
        dimension = int(vectors.shape[1])
        if self._table is None:
            self._table = self._db.create_table(TABLE, schema=self._schema(dimension))
        columns: dict[str, Any] = {
            "unit_id": [u.unit_id for u in units],
            "document": [u.document for u in units],
            "version": [u.version for u in units],
            "ordinal": [u.ordinal for u in units],
            "passage": [u.passage for u in units],
            "context": [u.context for u in units],
            "section": [u.section for u in units],
            "char_start": [u.char_start for u in units],
            "char_end": [u.char_end for u in units],
            "page": [u.page for u in units],
            "boxes": [json.dumps([[b.page, b.x0, b.y0, b.x1, b.y1] for b in u.boxes]) for u in units],
            "scripts": [",".join(u.scripts) for u in units],
        }
        flat = pa.array(np.ascontiguousarray(vectors, dtype=np.float32).reshape(-1))
        columns["vector"] = pa.FixedSizeListArray.from_arrays(flat, dimension)
        self._table.add(pa.table(columns, schema=self._schema(dimension)))

    def delete_version(self, version: str) -> None:
        if self._table is not None:
            self._table.delete(f"version = {_quote(version)}")

    def count(self) -> int:
        return 0 if self._table is None else int(self._table.count_rows())

    def units_of(self, document: str, version: str) -> list[EvidenceUnit]:
        if self._table is None:
            return []
        columns = [f for f in self._table.schema.names if f != "vector"]
        rows = (
            self._table.search()
            .where(f"document = {_quote(document)} AND version = {_quote(version)}")
            .select(columns)
            .limit(None)
            .to_list()
        )
        return sorted((_unit(r) for r in rows), key=lambda u: u.ordinal)

    def search(self, vector: npt.NDArray[np.float32], limit: int) -> list[tuple[str, str, float]]:
        """The nearest units by cosine distance: (unit_id, version, distance), closest first."""
        if self._table is None:
            return []
        rows = (
            self._table.search(np.asarray(vector, dtype=np.float32))
            .metric("cosine")
            .select(["unit_id", "version", "_distance"])
            .limit(limit)
            .to_list()
        )
        return [(r["unit_id"], r["version"], float(r["_distance"])) for r in rows]

    def units_by_id(self, unit_ids: Sequence[str]) -> dict[str, EvidenceUnit]:
        if self._table is None or not unit_ids:
            return {}
        columns = [f for f in self._table.schema.names if f != "vector"]
        listed = ", ".join(_quote(u) for u in unit_ids)
        rows = self._table.search().where(f"unit_id IN ({listed})").select(columns).limit(None).to_list()
        return {r["unit_id"]: _unit(r) for r in rows}

    def units_in_span(self, document: str, version: str, start: int, end: int) -> list[EvidenceUnit]:
        """The units of a document version that overlap text[start:end], in reading order."""
        if self._table is None:
            return []
        columns = [f for f in self._table.schema.names if f != "vector"]
        where = (
            f"document = {_quote(document)} AND version = {_quote(version)} "
            f"AND char_start < {int(end)} AND char_end > {int(start)}"
        )
        rows = self._table.search().where(where).select(columns).limit(None).to_list()
        return sorted((_unit(r) for r in rows), key=lambda u: u.ordinal)

    def vectors_by_id(self, unit_ids: Sequence[str]) -> dict[str, npt.NDArray[np.float32]]:
        if self._table is None or not unit_ids:
            return {}
        listed = ", ".join(_quote(u) for u in unit_ids)
        rows = self._table.search().where(f"unit_id IN ({listed})").select(["unit_id", "vector"]).limit(None)
        table = rows.to_arrow()
        vectors = table.column("vector").to_pylist()
        return {
            uid: np.asarray(vec, dtype=np.float32)
            for uid, vec in zip(table.column("unit_id").to_pylist(), vectors, strict=True)
        }

    def versions(self) -> set[str]:
        if self._table is None:
            return set()
        table = self._table.search().select(["version"]).limit(None).to_arrow()
        return set(table.column("version").unique().to_pylist())

    def compact(self) -> None:
        """Merge small fragments left by many per-document writes (cheap, safe at any time)."""
        if self._table is not None:
            self._table.optimize()


def _unit(row: dict[str, Any]) -> EvidenceUnit:
    return EvidenceUnit(
        unit_id=row["unit_id"],
        document=row["document"],
        version=row["version"],
        ordinal=row["ordinal"],
        passage=row["passage"],
        char_start=row["char_start"],
        char_end=row["char_end"],
        page=row["page"],
        boxes=tuple(Box(int(b[0]), *b[1:]) for b in json.loads(row["boxes"])),
        section=row["section"],
        context=row["context"],
        scripts=tuple(s for s in row["scripts"].split(",") if s),
    )
