#!/usr/bin/env python3
"""What the answer reader does on the real-document set: on no answer, on every short answer, and on
the short answers the answer model hesitated over, from one run.

    # a library whose config.toml says [models] reader = "packaged", [verify] reader_below_certainty = 1.0
    .venv/bin/python benchmarks/realdocs/run.py --available --library DIR --details F
    .venv/bin/python benchmarks/realdocs/reader_gate.py F [--below 0.3 0.5 0.7]

It reads `citedesk eval --details F` too (squad-dev, in a library with the same config.toml), where
right is SQuAD's match of a gold answer.

With the reader reading every short answer, each claim's method says what it found ("reader: the
passage answers ..." when it refused, ", reader 0.83" when it agreed) and how sure the answer model was
("model's certainty 0.41", answer/certainty.py). A claim the reader refused is counted as shown in the
worlds where the reader would not have read it (its other checks had passed: the reader reads last but
the verifier, whose bar for a short answer, 0.1, almost every one clears). Off-document questions count
as right when refused. Never choose a threshold here: the set is for checking (README.md).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from citedesk_engine.evaluate.questions import answer_matches  # noqa: E402
from run import accepted  # noqa: E402

_CERTAINTY = re.compile(r"model's certainty (\d\.\d+)")


def answerable(row: dict) -> bool:
    return row["answerable"] if "answerable" in row else row["document"] is not None


def outcome(row: dict, below: float | None) -> str:
    """The question's outcome had the reader read only the short answers written with certainty under
    `below` (None: no answer)."""
    shown = []
    for claim in row["claims"]:
        found = _CERTAINTY.search(claim["method"])
        certainty = float(found.group(1)) if found else None
        read = below is not None and (certainty is None or certainty < below)
        if claim["supported"] or (claim["method"].startswith("reader") and not read):
            shown.append(claim["text"])
    if not answerable(row):
        return "wrong but shown" if shown else "right"
    if not shown:
        return "refused"
    if "answerable" in row:  # citedesk eval's details
        return "right" if answer_matches(" ".join(shown), row["expected"]) else "wrong but shown"
    every = row["kind"] == "list"
    return "right" if accepted(" ".join(shown), row["expected"], every) else "wrong but shown"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("details")
    parser.add_argument("--below", type=float, nargs="*", default=[0.3, 0.5, 0.7])
    args = parser.parse_args()
    rows = [json.loads(line) for line in Path(args.details).read_text().splitlines()]
    asked = [r for r in rows if answerable(r)]
    off = [r for r in rows if not answerable(r)]
    worlds: list[tuple[str, float | None]] = [("no reader", None), ("every short answer", 2.0)]
    worlds += [(f"certainty below {b:.2f}", b) for b in args.below]
    print(f"{len(asked)} answerable, {len(off)} off-document")
    print(f"{'reader reads':28} right  wrong-shown  refused  off-document refused")
    for name, below in worlds:
        counts = Counter(outcome(r, below) for r in asked)
        off_right = sum(outcome(r, below) == "right" for r in off)
        shown = f"{counts['right']:5}  {counts['wrong but shown']:11}  {counts['refused']:7}"
        print(f"{name:28} {shown}  {off_right}/{len(off)}")
    changed = [r for r in asked if outcome(r, None) != outcome(r, 2.0)]
    print("\nQuestions the reader changes when it reads every short answer:")
    for r in changed:
        methods = "; ".join(c["method"] for c in r["claims"])
        print(f"  {r['id']} {outcome(r, None)} -> {outcome(r, 2.0)}: {r['question'][:60]!r}: {methods[:160]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
