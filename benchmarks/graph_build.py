"""What the slow path (the entity graph) costs beside ingest: the issue's goal is at most +50%.

Ingests documents into a fresh library (the fast path: extract, chunk, embed, index), then builds the
entity graph (graph/build.py: reading mentions, deriving aliases, nodes and topics, embedding labels)
and prints each time, their ratio, and the graph's size.

    .venv/bin/python benchmarks/graph_build.py benchmarks/data/realdocs/debian-reference.en.pdf
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from citedesk_engine import Engine
from citedesk_engine.graph import build


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, Engine.open(Path(folder) / "lib") as engine:
        engine.embedder()  # loaded before the clock starts, as in the window
        engine.mention_reader().read(["Warm up."])
        started = time.perf_counter()
        report = engine.ingest(args.paths)
        ingest = time.perf_counter() - started
        units = report.units
        phases: dict[str, float] = {}
        derive, labels = build.GraphBuilder._derive, build.GraphBuilder._embed_labels

        def timed(name, method):  # type: ignore[no-untyped-def]
            def run(*a, **k):  # type: ignore[no-untyped-def]
                t = time.perf_counter()
                result = method(*a, **k)
                phases[name] = phases.get(name, 0.0) + time.perf_counter() - t
                return result

            return run

        build.GraphBuilder._derive = timed("derive", derive)  # type: ignore[method-assign]
        build.GraphBuilder._embed_labels = timed("labels", labels)  # type: ignore[method-assign]
        started = time.perf_counter()
        status = engine.build_graph()
        graph = time.perf_counter() - started
        reading = graph - sum(phases.values())
        print(f"documents {len(report.files)}, passages {units}")
        print(f"ingest (fast path)     {ingest:7.1f} s")
        print(f"entity graph           {graph:7.1f} s  = {graph / ingest:.0%} of ingest")
        print(f"  reading mentions     {reading:7.1f} s  ({units / max(reading, 1e-9):.1f} passages/s)")
        print(f"  aliases, topics      {phases.get('derive', 0.0):7.1f} s")
        print(f"  label embeddings     {phases.get('labels', 0.0):7.1f} s")
        print(f"graph: {status.nodes:,} entities, {status.communities:,} topics")
    return 0


if __name__ == "__main__":
    sys.exit(main())
