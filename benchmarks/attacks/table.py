"""The attack suite's table: per kind and domain, the share of attacks the gate rejects and of honest
rewrites it accepts, from a `citedesk verify --details` run.

    .venv/bin/citedesk verify benchmarks/attacks/claims.jsonl --details /tmp/attacks.jsonl
    .venv/bin/python benchmarks/attacks/table.py /tmp/attacks.jsonl [--misses N]
    .venv/bin/citedesk verify benchmarks/attacks/held_out.jsonl --details /tmp/held.jsonl
    .venv/bin/python benchmarks/attacks/table.py /tmp/held.jsonl --claims benchmarks/attacks/held_out.jsonl

--misses prints N of each kind's misses (claim, source sentence, the check that decided), to read.
Goals (issue 20): at least 98% of attacks rejected in every kind, at least 97% of controls accepted.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("details", type=Path)
    parser.add_argument("--misses", type=int, default=0)
    parser.add_argument("--claims", type=Path, default=HERE / "claims.jsonl", help="the suite that was run")
    args = parser.parse_args()
    rows = {r["id"]: r for r in map(json.loads, args.claims.read_text(encoding="utf-8").splitlines())}
    verdicts = [json.loads(line) for line in args.details.read_text(encoding="utf-8").splitlines()]
    right: dict[str, Counter[str]] = defaultdict(Counter)
    total: dict[str, Counter[str]] = defaultdict(Counter)
    checks: dict[str, Counter[str]] = defaultdict(Counter)
    misses: dict[str, list[dict]] = defaultdict(list)
    for verdict in verdicts:
        row = rows[verdict["id"]]
        kind, domain = row["kind"], row["domain"]
        for key in (domain, "all"):
            total[kind][key] += 1
            right[kind][key] += verdict["right"]
        checks[kind][verdict["check"]] += 1
        if not verdict["right"]:
            misses[kind].append({**verdict, "source": row["source"]})
    domains = sorted({r["domain"] for r in rows.values()})
    print(f"| kind | label | {' | '.join(domains)} | all | decided by |")
    print(f"| --- | --- | {' | '.join('---' for _ in domains)} | --- | --- |")
    for label in ("unsupported", "supported"):
        for kind in sorted(k for k in total if rows_label(rows, k) == label):
            cells = [_share(right[kind][d], total[kind][d]) for d in [*domains, "all"]]
            top = ", ".join(f"{c} {n}" for c, n in checks[kind].most_common(3))
            what = "rejected" if label == "unsupported" else "accepted"
            print(f"| {kind} | {what} | {' | '.join(cells)} | {top} |")
    for label, what in (("unsupported", "attacks rejected"), ("supported", "controls accepted")):
        kinds = [k for k in total if rows_label(rows, k) == label]
        done = sum(right[k]["all"] for k in kinds)
        n = sum(total[k]["all"] for k in kinds)
        print(f"{what}: {done}/{n} = {done / n:.3f}")
    if args.misses:
        for kind, found in sorted(misses.items()):
            print(f"\n## {kind}: {len(found)} missed")
            for miss in found[: args.misses]:
                print(f"  source: {miss['source'][:160]}")
                print(f"  claim:  {miss['claim'][:160]}")
                print(f"  check:  {miss['method']}")
    return 0


def rows_label(rows: dict[str, dict], kind: str) -> str:
    return next(r["label"] for r in rows.values() if r["kind"] == kind)


def _share(right: int, total: int) -> str:
    return f"{right / total:.2f} ({total})" if total else "-"


if __name__ == "__main__":
    raise SystemExit(main())
