"""The generation prompt: numbered passages, one citation per sentence, nothing from outside."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..types import EvidenceUnit

NOT_FOUND = "NOT IN PASSAGES"

SYSTEM = (
    "You answer questions using only the numbered passages you are given. "
    "Write one to three short sentences. End every sentence with the number of the passage it comes "
    "from in square brackets, like [1]. Use no knowledge of your own. "
    f"If the passages do not answer the question, write only: {NOT_FOUND}"
)


def build_messages(
    question: str, units: Sequence[EvidenceUnit], *, max_chars: int, earlier: str = ""
) -> list[dict[str, str]]:
    blocks = []
    for number, unit in enumerate(units, start=1):
        where = f", page {unit.page}" if unit.page else (f", {unit.section}" if unit.section else "")
        text = " ".join(unit.index_text.split())[:max_chars]
        blocks.append(f"[{number}] ({Path(unit.document).name}{where}) {text}")
    context = f"Earlier question in this conversation: {earlier}\n" if earlier else ""
    user = "Passages:\n" + "\n\n".join(blocks) + f"\n\n{context}Question: {question}"
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]
