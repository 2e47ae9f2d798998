"""Which sentences the generator writes for the library wiki each rule keeps, against a reader's
judgement: the per-claim gate as answers meet it (a window of up to three sentences of the passage,
partly aligned claims read by the claim verifier) and the wiki's strict rule (graph/wiki.py: one
sentence of the passage holding every content word of it, on top of the gate).

Reads the pages that benchmarks/wiki_pages.py wrote into libraries. Every sentence a page's generator
wrote that names the page's subject and was not cut off, kept or removed, is checked again under both
rules against the page's passages. The labels are a reader's, in benchmarks/wiki_labels.json
({sentence: true or false}; true when a passage states it): a sentence either rule keeps that has no
label yet is printed with the passage sentence nearest it, to be read and labelled. Prints per rule
the sentences kept, how many of them the reader judged false, and the true ones it removed.

    .venv/bin/python benchmarks/wiki_gate.py /tmp/wiki-debian /tmp/wiki-papers
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from citedesk_engine import Engine
from citedesk_engine.answer.claims import sentences
from citedesk_engine.answer.text import content_stems
from citedesk_engine.answer.verify import ClaimVerifier
from citedesk_engine.graph.wiki import stands_on

LABELS = Path(__file__).with_name("wiki_labels.json")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("libraries", nargs="+", type=Path)
    args = parser.parse_args()
    labels: dict[str, bool] = json.loads(LABELS.read_text()) if LABELS.exists() else {}
    tally = {"gate": [0, 0, 0], "strict": [0, 0, 0]}  # kept, kept but false, true but removed
    unlabelled = 0
    for folder in args.libraries:
        with Engine.open(folder) as engine:
            gate = ClaimVerifier(
                engine.config.verify, engine.embedder, engine.claim_judge, engine.answer_reader
            )
            for subject in engine.library.graph.wiki.subjects():
                page = engine.cached_wiki(subject)
                if page is None:  # written from passages that changed since, or by an older CiteDesk
                    continue
                units = engine.library.manifest.units_by_id([s.unit_id for s in page.sources])
                texts = [u.index_text for u in units.values()]
                written = [c.text for c in page.claims] + [d.text for d in page.dropped if d.unsupported]
                for sentence in written:
                    kept = {
                        "gate": gate.check(sentence, texts).supported,
                        "strict": stands_on(gate, sentence, texts)[0] is not None,  # as pages apply it
                    }
                    label = labels.get(sentence)
                    for name, count in tally.items():
                        count[0] += kept[name]
                        count[1] += kept[name] and label is False
                        count[2] += (not kept[name]) and label is True
                    if label is None and any(kept.values()):
                        unlabelled += 1
                        print(f"UNLABELLED {kept}: {sentence}\n    nearest: {_nearest(sentence, texts)}\n")
    for name, (kept, false, lost) in tally.items():
        print(f"{name:>6}: kept {kept}, of them judged false {false}; judged true but removed {lost}")
    print(f"{unlabelled} kept sentences without a label ({LABELS.name})")
    return 0


def _nearest(sentence: str, texts: list[str]) -> str:
    wanted = set(content_stems(sentence))
    parts = [p for text in texts for p in sentences(" ".join(text.split()))]
    return max(parts, key=lambda p: len(wanted & set(content_stems(p))), default="")[:400]


if __name__ == "__main__":
    raise SystemExit(main())
