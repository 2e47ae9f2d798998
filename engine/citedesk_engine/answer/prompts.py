"""The generation prompt: numbered passages, a citation after each sentence, nothing from outside.

The wording was chosen by trying variants on the packaged Qwen2.5-Coder-0.5B: asked in prose for
"[n]" citations it often answers with the citation alone ("[1]") or repeats "[1] [2]"; one worked
example makes it write a sentence and then cite. Wrong citation numbers are caught downstream: every
claim is verified against the passage it is finally cited with.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..types import EvidenceUnit

NOT_FOUND = "NOT IN PASSAGES"

SYSTEM = (
    f"Answer questions from the passages only. If they do not say, write {NOT_FOUND}. Example:\n"
    "Passage 1: Cats sleep 15 hours a day.\n"
    "Question: How long do cats sleep?\n"
    "Answer: Cats sleep 15 hours a day [1]."
)


def build_messages(question: str, units: Sequence[EvidenceUnit], *, max_chars: int) -> list[dict[str, str]]:
    """Earlier turns of a conversation reach the model only through the passages they retrieved:
    shown an "earlier question" line, the 0.5B model answered that line instead of the question."""
    passages = "\n".join(
        f"Passage {number}: {' '.join(unit.index_text.split())[:max_chars]}"
        for number, unit in enumerate(units, start=1)
    )
    return [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": f"{passages}\nQuestion: {question}\nAnswer:"},
    ]
