"""The bookkeeping of one question through the ask pipeline (flow.py): its trace, its events, the
cancel checks between stages, and the Answer it ends in; and a retrieved passage as an answer cites it."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from pathlib import PurePath

from ..errors import Cancelled
from ..events import EventCallback, StageStarted, emit
from ..pages import page_words
from ..types import Answer, Candidate, Claim, Decision, EvidenceUnit, Refusal, SourceRef, StageTrace


class QuestionRun:
    """Bookkeeping of one question: trace, events, cancel checks, and building the Answer."""

    def __init__(self, question: str, on_event: EventCallback | None, cancel: threading.Event | None) -> None:
        self.question = question
        self.on_event = on_event
        self.cancel = cancel
        self.trace: list[StageTrace] = []
        self.searched = ""  # the question as searched, when a follow-up was rewritten or folded
        self.quote = False  # the answer is a passage's sentence quoted, the model having declined
        self._started = time.perf_counter()
        self._current = ""  # the stage under way

    def stage(self, name: str) -> None:
        if self.cancel is not None and self.cancel.is_set():
            raise Cancelled("question cancelled")
        emit(self.on_event, StageStarted(name, self.question))
        self._started = time.perf_counter()
        self._current = name

    def stopped(self) -> tuple[StageTrace, ...]:
        """The trace of a question the user stopped: the stages done, then the one it was stopped in
        with the time spent in it (a window session's stopped question showed "0 stages, 0 ms")."""
        done = {t.stage for t in self.trace}
        if not self._current or self._current in done:
            return tuple(self.trace)
        spent = (time.perf_counter() - self._started) * 1000
        return (*self.trace, StageTrace(self._current, 0, 0, spent, {"stopped": True}))

    def record(self, stage: str, into: int, out: int, **details: object) -> None:
        self.trace.append(StageTrace(stage, into, out, (time.perf_counter() - self._started) * 1000, details))

    def refuse(
        self,
        refusal: Refusal,
        *,
        text: str = "",
        claims: Sequence[Claim] = (),
        conflicts: Sequence = (),
        considered: Sequence[SourceRef] = (),
    ) -> Answer:
        if text:  # what the generator wrote stays visible in the refusal's details
            refusal = Refusal(refusal.stage, refusal.reason, {**refusal.details, "generated": text})
        return Answer(
            question=self.question,
            decision=Decision.REFUSED,
            text="",
            claims=tuple(claims),
            sources=(),
            conflicts=tuple(conflicts),
            trace=tuple(self.trace),
            refusal=refusal,
            removed_claims=sum(1 for c in claims if not c.supported),
            searched=self.searched,
            considered=tuple(considered),
        )

    def answer(
        self,
        supported: Sequence[Claim],
        claims: Sequence[Claim],
        context: Sequence[Candidate],
        conflicts: Sequence,
        removed: int,
        paths: dict[str, str],
    ) -> Answer:
        found = {c.unit.unit_id: c for c in context}
        order = list(dict.fromkeys(uid for claim in supported for uid in claim.sources))
        sources = tuple(source_ref(found[uid], paths) for uid in order)
        text = " ".join(
            claim.text + " " + "".join(f"[{order.index(uid) + 1}]" for uid in claim.sources)
            for claim in supported
        )
        return Answer(
            question=self.question,
            decision=Decision.PARTIAL if removed else Decision.ANSWERED,
            text=text,
            claims=tuple(claims),
            sources=sources,
            conflicts=tuple(conflicts),
            trace=tuple(self.trace),
            removed_claims=removed,
            searched=self.searched,
            quote=self.quote,
        )


def place(unit: EvidenceUnit, paths: dict[str, str]) -> str:
    """Where a passage is, for the trace: its file's name and page ("sandwich-CL.pdf, page 12"; a
    sheet by its name, "deaths.xlsx, sheet arts"), or the heading it stands under. A window session's
    trace named the passages the model read by unit id only."""
    path = paths.get(unit.document, unit.document)
    name = PurePath(path).name
    if unit.page:
        return f"{name}, {page_words(path, unit.page, unit.section)}"
    return f"{name}, {unit.section}" if unit.section else name


def source_ref(candidate: Candidate, paths: dict[str, str]) -> SourceRef:
    """A retrieved passage as an answer cites it (or a refusal shows it): where it is, byte-exact,
    and how retrieval found it."""
    unit = candidate.unit
    return SourceRef(
        unit_id=unit.unit_id,
        document=unit.document,
        path=paths.get(unit.document, unit.document),
        page=unit.page,
        boxes=unit.boxes,
        char_start=unit.char_start,
        char_end=unit.char_end,
        passage=unit.passage,
        section=unit.section,
        header=unit.context,
        ranks=dict(candidate.ranks),
        scores=dict(candidate.scores),
        fused=candidate.fused,
        rerank=candidate.rerank,
    )
