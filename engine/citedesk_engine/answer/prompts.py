"""The generation prompt: numbered passages, a citation after each sentence, nothing from outside.

The wording was chosen by trying variants on the packaged Qwen2.5-Coder-0.5B (the default generator
until the 1.5B replaced it; the 1.5B reads the same prompt, see the README's figures): asked in prose for
"[n]" citations it often answers with the citation alone ("[1]") or repeats "[1] [2]"; one worked
example makes it write the answer and then cite. Asked for the passage's own shortest words, it
answers with the span that answers ("15 hours a day [1]") instead of a sentence that restates the
question around it: on 60 answerable and 20 off-corpus squad-dev questions, answer accuracy went from
0.35 to 0.40, false refusals from 0.38 to 0.22 (the per-claim gate doubted restating sentences read
on their own; a short answer is read with its question) and the median ask from 3.3 s to 3.0 s
(fewer tokens to write). It also answers with the question's own subject at times ("Who were the
Semuren?" - "The Semuren"), which the gate refuses as adding nothing. Three worked questions on one
passage (a span, a definition, one date of two) made it pick the span nearer the question's words and
define instead of repeating the subject: on those 80 squad-dev questions accuracy 0.45 -> 0.50, false
refusals 0.23 -> 0.20; on 80 questions of our own (SQuAD-Shifts new_wiki, benchmarks/fusion_study.py's
kind of set) 0.45 -> 0.475 and 0.19 -> 0.14. The longer system prompt costs nothing after the first
question: llama.cpp keeps it as the cached prefix. Wrong citation numbers are caught downstream:
every claim is verified against the passage it is finally cited with.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..types import EvidenceUnit
from .claims import sentences
from .text import content_stems

NOT_FOUND = "NOT IN PASSAGES"

SYSTEM = (
    "Answer questions from the passages only, with the shortest exact words of the passage that answer. "
    f"If they do not say, write {NOT_FOUND}. Examples:\n"
    "Passage 1: Cats sleep 15 hours a day. A tabby is a domestic cat with a striped coat. The first cat "
    "show was held in London in 1871, thousands of years after cats were first tamed in 7500 BC.\n"
    "Question: How long do cats sleep?\n"
    "Answer: 15 hours a day [1].\n"
    "Question: What is a tabby?\n"
    "Answer: a domestic cat with a striped coat [1].\n"
    "Question: When was the first cat show held?\n"
    "Answer: 1871 [1]."
)


def focus(text: str, question: str, max_chars: int) -> str:
    """The part of a passage that bears on the question: the sentence sharing most of its words, grown
    with its neighbours up to `max_chars`. The model reads less (prompt processing is most of the time
    of an answer on few cores); claims are still verified against the whole passage."""
    text = " ".join(text.split())
    if len(text) <= max_chars:
        return text
    parts = sentences(text) or [text]
    wanted = set(content_stems(question))
    scores = [len(wanted & set(content_stems(p))) for p in parts]
    best = max(range(len(parts)), key=lambda i: (scores[i], -i))
    first = last = best
    while True:
        grown = False
        for candidate in (last + 1, first - 1):
            if 0 <= candidate < len(parts):
                lo, hi = min(first, candidate), max(last, candidate)
                if len(" ".join(parts[lo : hi + 1])) <= max_chars:
                    first, last, grown = lo, hi, True
        if not grown:
            break
    return " ".join(parts[first : last + 1])[:max_chars]


def build_messages(question: str, units: Sequence[EvidenceUnit], *, max_chars: int) -> list[dict[str, str]]:
    """Earlier turns of a conversation reach the model only through the passages they retrieved:
    shown an "earlier question" line, the 0.5B model answered that line instead of the question."""
    passages = "\n".join(
        f"Passage {number}: {focus(unit.index_text, question, max_chars)}"
        for number, unit in enumerate(units, start=1)
    )
    return [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": f"{passages}\nQuestion: {question}\nAnswer:"},
    ]
