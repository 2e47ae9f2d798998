"""How long the library wiki's pages take to appear, and how much of what the generator wrote the gate
keeps: the issue's goal is a first page within 20 s, then cached.

Ingests documents into a library (kept in --library, so a second run skips the ingest), builds the
entity graph, then opens the pages of the largest topics and the most mentioned entities as Explore
does, the generator loaded beforehand (as the window loads it in the background). Prints per page the
seconds to write it and to its first kept sentence (pages are checked sentence by sentence as they
are written, and shown growing), sentences kept, removed by the gate and left out (off subject or cut
off), then the median and the largest time, the time to open a page again (cached), and every
sentence, kept or left out (and why), so a reader can judge them.

    .venv/bin/python benchmarks/wiki_pages.py benchmarks/data/realdocs/debian-reference.en.pdf \\
        --library /tmp/wiki-debian --topics 5 --entities 10
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from citedesk_engine import Engine
from citedesk_engine.events import SentenceChecked
from citedesk_engine.graph.wiki import entity_subject, topic_subject


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--library", type=Path, required=True)
    parser.add_argument("--topics", type=int, default=5)
    parser.add_argument("--entities", type=int, default=10)
    parser.add_argument("--quiet", action="store_true", help="leave out the sentences")
    args = parser.parse_args()
    with Engine.open(args.library) as engine:
        engine.ingest(args.paths)
        engine.build_graph()
        engine.load_generator()
        engine.embedder()
        engine.claim_judge()
        subjects = [topic_subject(t.label) for t in engine.topics()[: args.topics]]
        subjects += [entity_subject(n.node) for n in engine.entities()[: args.entities]]
        times, again, first = [], [], []
        kept = removed = off = 0
        for subject in subjects:
            started = time.perf_counter()
            shown: list[float] = []

            def on_event(event: object, started: float = started, shown: list[float] = shown) -> None:
                if isinstance(event, SentenceChecked) and event.kept and not shown:
                    shown.append(time.perf_counter() - started)

            page = engine.wiki(subject, on_event=on_event)
            times.append(time.perf_counter() - started)
            first += shown
            started = time.perf_counter()
            engine.wiki(subject)
            again.append(time.perf_counter() - started)
            kept, removed, off = kept + len(page.claims), removed + page.removed, off + page.left_out
            seen = f"{shown[0]:5.1f} s" if shown else "   none"
            print(
                f"{times[-1]:6.1f} s (first sentence {seen})  kept {len(page.claims)}  "
                f"removed {page.removed}  left out {page.left_out}  "
                f"from {len(page.sources)}  {page.title}"
            )
            if not args.quiet:
                for claim in page.claims:
                    print(f"           + {claim.text}  [{claim.method}]")
                for dropped in page.dropped:
                    print(f"           - {dropped.text}  [{dropped.why}]")
        print(
            f"\n{len(times)} pages: median {statistics.median(times):.1f} s, largest {max(times):.1f} s, "
            f"over 20 s: {sum(t > 20 for t in times)}; opened again: largest {max(again) * 1000:.1f} ms"
        )
        if first:
            print(
                f"first kept sentence shown: median {statistics.median(first):.1f} s, largest "
                f"{max(first):.1f} s ({len(first)} pages with one)"
            )
        written = kept + removed + off
        print(
            f"sentences: {written} written, {kept} kept ({kept / max(written, 1):.0%}), "
            f"{removed} removed by the gate, {off} left out (off subject or cut off)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
