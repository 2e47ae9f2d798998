"""Evidence units with their vectors in LanceDB (cosine on L2-normalised vectors)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..types import EvidenceUnit

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
        # Exact search runs on an in-memory copy of the vectors (float32, 1.5 KB a unit): one matrix
        # product beats a scan through the table by an order of magnitude. Writes mark it stale.
        self._matrix: npt.NDArray[np.float32] | None = None
        self._ids: list[str] = []
        self._rows: dict[str, int] = {}
        self._versions: npt.NDArray[np.str_] = np.array([], dtype=str)

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
            "boxes": [json.dumps([b.as_row() for b in u.boxes]) for u in units],
            "scripts": [",".join(u.scripts) for u in units],
        }
        flat = pa.array(np.ascontiguousarray(vectors, dtype=np.float32).reshape(-1))
        columns["vector"] = pa.FixedSizeListArray.from_arrays(flat, dimension)
        self._table.add(pa.table(columns, schema=self._schema(dimension)))
        self._matrix = None

    def delete_version(self, version: str) -> None:
        if self._table is not None:
            self._table.delete(f"version = {_quote(version)}")
            self._matrix = None

    def count(self) -> int:
        return 0 if self._table is None else int(self._table.count_rows())

    def search(
        self, vector: npt.NDArray[np.float32], limit: int, versions: frozenset[str] | None = None
    ) -> list[tuple[str, str, float]]:
        """The nearest units by cosine distance: (unit_id, version, distance), closest first; with
        `versions`, only units of those document versions (a scoped question)."""
        matrix = self._vectors()
        if matrix is None or not len(matrix) or limit <= 0:
            return []
        rows = None if versions is None else np.nonzero(np.isin(self._versions, list(versions)))[0]
        if rows is not None:
            if not len(rows):
                return []
            matrix = matrix[rows]
        similarity = matrix @ np.asarray(vector, dtype=np.float32)
        if limit < len(similarity):
            top = np.argpartition(-similarity, limit)[:limit]
        else:
            top = np.arange(len(similarity))
        top = top[np.argsort(-similarity[top], kind="stable")]
        ids = [self._ids[i] for i in (top if rows is None else rows[top])]
        return [(uid, uid.split("-")[0], float(1.0 - similarity[i])) for uid, i in zip(ids, top, strict=True)]

    def _vectors(self) -> npt.NDArray[np.float32] | None:
        if self._matrix is None and self._table is not None:
            table = self._table.search().select(["unit_id", "vector"]).limit(None).to_arrow()
            column = table.column("vector").combine_chunks()
            dimension = column.type.list_size
            self._matrix = np.ascontiguousarray(
                column.values.to_numpy().reshape(-1, dimension), dtype=np.float32
            )
            self._ids = table.column("unit_id").to_pylist()
            self._rows = {uid: row for row, uid in enumerate(self._ids)}
            # A unit id starts with its version: the rows' versions, for a scoped search.
            self._versions = np.array([uid.split("-")[0] for uid in self._ids])
        return self._matrix

    def vectors_by_id(self, unit_ids: Sequence[str]) -> dict[str, npt.NDArray[np.float32]]:
        """The stored vectors of these units (units not in the index are left out)."""
        matrix = self._vectors()
        if matrix is None:
            return {}
        return {uid: matrix[self._rows[uid]] for uid in unit_ids if uid in self._rows}

    def versions(self) -> set[str]:
        if self._table is None:
            return set()
        table = self._table.search().select(["version"]).limit(None).to_arrow()
        return set(table.column("version").unique().to_pylist())

    def compact(self) -> None:
        """Merge small fragments left by many per-document writes (cheap, safe at any time)."""
        if self._table is not None:
            self._table.optimize()
