"""How close the packaged embedder puts two names of one thing, and two names of different things: the
evidence for `[retrieval] graph_label_similarity` (a node whose label embeds at least this close to a
name in the question counts as named by it). Pairs written by hand, not taken from any test set.

    .venv/bin/python benchmarks/graph_labels.py
"""

from __future__ import annotations

import sys

import numpy as np
from citedesk_engine.config import Config, cache_dir
from citedesk_engine.models.embedder import SentenceTransformerEmbedder
from citedesk_engine.models.registry import ModelRegistry

SAME = [
    ("NYC", "New York City"),
    ("U.S.", "United States"),
    ("IPCC", "Intergovernmental Panel on Climate Change"),
    ("Debian GNU/Linux", "Debian"),
    ("the Beatles", "The Beatles band"),
    ("J. R. R. Tolkien", "Tolkien"),
    ("UK", "United Kingdom"),
    ("Barack Obama", "President Obama"),
    ("Kate Winslet", "Winslet"),
    ("World War II", "Second World War"),
]
DIFFERENT = [
    ("New York City", "New Jersey"),
    ("James Cameron", "James Bond"),
    ("United States", "United Nations"),
    ("Kate Winslet", "Kate Bush"),
    ("Debian", "Ubuntu"),
    ("World War II", "World War I"),
    ("Paris", "Paris Hilton"),
    ("Apple", "Apple Records"),
    ("John Lennon", "John Adams"),
    ("IPCC", "IPA"),
]


def main() -> int:
    registry = ModelRegistry(Config().models, cache_dir())
    embedder = SentenceTransformerEmbedder(registry.embedder_path(), name=registry.embedder_name())
    found = {}
    for name, pairs in (("same", SAME), ("different", DIFFERENT)):
        left = embedder.embed_queries([a for a, _ in pairs])
        right = embedder.embed_queries([b for _, b in pairs])
        found[name] = [float(np.dot(left[i], right[i])) for i in range(len(pairs))]
        for (a, b), similarity in zip(pairs, found[name], strict=True):
            print(f"{name:<9} {similarity:.2f}  {a} / {b}")
    for threshold in (0.75, 0.8, 0.85, 0.9):
        same = sum(s >= threshold for s in found["same"])
        different = sum(s >= threshold for s in found["different"])
        print(
            f"at {threshold:.2f}: {same}/{len(SAME)} same names matched, "
            f"{different}/{len(DIFFERENT)} different"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
