"""strategy "deep": the question answered from several lookups, the generator asking for each.

The first hop searches with the question, as the normal flow does. Then, under a budget (hops,
lookups the generator may ask for, seconds), the generator reads the question and the best passages
found so far and either says they are enough (DONE) or writes one short search for the fact still
missing ("James Cameron birthplace" after a passage says he directed Titanic); that search is the next
hop. Every hop's passages are judged relevant against the search that found them (the director's
biography answers "James Cameron birthplace", not the question's words), and a passage that names an
entity a relevant passage names (the entity graph's link) counts too, once at least one passage is
relevant to the question itself, so an off-topic question is still refused; then the answer is written
from the best passages of every hop and goes through every gate of the normal flow: each claim must
be supported by the passages it cites.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..events import EventCallback, StageStarted, emit
from ..protocols import Generator
from ..types import Candidate, Retrieval
from .prompts import focus

STANDARD, DEEP = "standard", "deep"
STRATEGIES = (STANDARD, DEEP)
LOOKUP_SYSTEM = (
    "You help answer a question from documents. You are shown the question and notes found so far. "
    "If the notes hold everything needed to answer the question, reply DONE. Otherwise reply with one "
    "short search (a few words) for the one fact still missing, and nothing else."
)
NOTE_CHARS = 300  # of each passage shown to the generator when it decides on the next lookup
NOTES_PER_HOP = 2
_PREFIX = re.compile(r"^(search|query|search query|lookup)\s*:\s*", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Budget:
    hops: int  # searches in all, the question's own included
    lookups: int  # times the generator is asked whether another search is needed
    seconds: float  # no new lookup is asked for once this much time has passed


@dataclass(frozen=True, slots=True)
class Hop:
    query: str
    retrieval: Retrieval
    asked_by: str = "question"  # or "generator"


@dataclass
class DeepSearch:
    retrieve: Callable[[str], Retrieval]
    generator: Callable[[], Generator]
    budget: Budget
    # Of candidate unit ids, those naming an entity that relevant passages (the anchors) name: a
    # passage that links to the anchor is the chain's next link even when it shares no word with
    # the question (the director's biography). Default: none (no entity graph).
    linked: Callable[[list[str], list[str]], set[str]] = lambda anchors, others: set()

    def gather(
        self,
        question: str,
        first: Hop,
        on_event: EventCallback | None = None,
        cancel: threading.Event | None = None,
    ) -> tuple[list[Hop], dict[str, object]]:
        """The hops searched (the first given), and what the trace says of them: each search, why
        the lookups stopped, and the budget left."""
        started = time.monotonic()
        hops = [first]
        lookups = 0
        stopped = "hop budget spent"
        while len(hops) < self.budget.hops:
            if lookups >= self.budget.lookups:
                stopped = "lookup budget spent"
                break
            if time.monotonic() - started >= self.budget.seconds:
                stopped = "time budget spent"
                break
            lookups += 1
            reply = self.generator().generate(lookup_messages(question, hops), max_tokens=24, cancel=cancel)
            search = parse_lookup(reply)
            if search is None:
                done = reply.strip().upper().startswith("DONE")
                stopped = "the generator had what it needed" if done else "the generator's reply is no search"
                break
            if any(_same(search, hop.query) for hop in hops):
                stopped = f"the generator asked again for {search!r}"
                break
            emit(on_event, StageStarted("lookup", search))
            hops.append(Hop(search, self.retrieve(search), asked_by="generator"))
        spent = time.monotonic() - started
        details: dict[str, object] = {
            "hops": [
                {"search": h.query, "asked_by": h.asked_by, "found": len(h.retrieval.candidates)}
                for h in hops
            ],
            "stopped": stopped,
            "left": {
                "hops": self.budget.hops - len(hops),
                "lookups": self.budget.lookups - lookups,
                "seconds": round(max(0.0, self.budget.seconds - spent), 1),
            },
        }
        return hops, details


def lookup_messages(question: str, hops: Sequence[Hop]) -> list[dict[str, str]]:
    notes = []
    for hop in hops:
        for candidate in hop.retrieval.candidates[:NOTES_PER_HOP]:
            notes.append(focus(candidate.unit.passage, f"{question} {hop.query}", NOTE_CHARS))
    written = "\n".join(f"[{i}] {note}" for i, note in enumerate(notes, start=1))
    return [
        {"role": "system", "content": LOOKUP_SYSTEM},
        {"role": "user", "content": f"Question: {question}\n\nNotes:\n{written}\n\nReply DONE or a search:"},
    ]


def parse_lookup(reply: str) -> str | None:
    """The search the generator asked for, or None when it said DONE (or nothing usable)."""
    line = next((x.strip() for x in reply.strip().splitlines() if x.strip()), "")
    line = _PREFIX.sub("", line).strip().strip("\"'`“”").rstrip(".").strip()
    if not line or line.upper().startswith("DONE") or len(line.split()) > 12:
        return None
    return line


def interleave(lists: Sequence[Sequence[Candidate]]) -> list[Candidate]:
    """The first of every hop, then the second of every hop, ..., each passage once."""
    merged: list[Candidate] = []
    seen: set[str] = set()
    for rank in range(max((len(x) for x in lists), default=0)):
        for found in lists:
            if rank < len(found) and found[rank].unit.unit_id not in seen:
                seen.add(found[rank].unit.unit_id)
                merged.append(found[rank])
    return merged


def _same(a: str, b: str) -> bool:
    return " ".join(a.lower().split()) == " ".join(b.lower().split())
