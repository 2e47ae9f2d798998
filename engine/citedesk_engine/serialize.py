"""Engine values as plain JSON-ready data (for --json output and stored conversations)."""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any

from .types import Answer, Box, Claim, Conflict, Decision, DocumentMeta, Refusal, SourceRef, Stage, StageTrace


def plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return value


def answer_from_plain(data: dict[str, Any]) -> Answer:
    """An Answer back from `plain(answer)` (a stored conversation turn). Fields added since the turn
    was stored take their defaults, so old conversations still open."""
    refusal = data.get("refusal")
    return Answer(
        question=str(data.get("question", "")),
        decision=Decision(data.get("decision", Decision.ANSWERED.value)),
        text=str(data.get("text", "")),
        claims=tuple(claim_from_plain(c) for c in data.get("claims", [])),
        sources=tuple(_source(s) for s in data.get("sources", [])),
        conflicts=tuple(
            Conflict(**{**_known(Conflict, c), "unit_ids": tuple(c.get("unit_ids", ("", "")))})
            for c in data.get("conflicts", [])
        ),
        trace=tuple(StageTrace(**_known(StageTrace, t)) for t in data.get("trace", [])),
        refusal=(
            Refusal(Stage(refusal["stage"]), str(refusal.get("reason", "")), dict(refusal.get("details", {})))
            if refusal
            else None
        ),
        conversation=str(data.get("conversation", "")),
        removed_claims=int(data.get("removed_claims", 0)),
        searched=str(data.get("searched", "")),
        quote=bool(data.get("quote", False)),
        considered=tuple(_source(s) for s in data.get("considered", [])),
        scope=tuple(str(d) for d in data.get("scope", ())),
    )


def claim_from_plain(data: dict[str, Any]) -> Claim:
    """A Claim back from `plain(claim)` (an answer's, or a library wiki page's sentence)."""
    return Claim(
        **{
            **_known(Claim, data),
            "sources": tuple(data.get("sources", ())),
            "evidence": tuple((str(u), int(a), int(b)) for u, a, b in data.get("evidence", ())),
        }
    )


def _source(data: dict[str, Any]) -> SourceRef:
    values = _known(SourceRef, data)
    values["boxes"] = tuple(Box(**_known(Box, b)) for b in data.get("boxes", []))
    about = data.get("about") or {}
    values["about"] = DocumentMeta(
        **{**_known(DocumentMeta, about), "authors": tuple(about.get("authors", ()))}
    )
    return SourceRef(**values)


def _known(cls: type, data: dict[str, Any]) -> dict[str, Any]:
    names = {f.name for f in dataclasses.fields(cls)}
    return {k: v for k, v in data.items() if k in names}
