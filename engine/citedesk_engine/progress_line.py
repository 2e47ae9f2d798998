"""A long verb's progress on stderr, for `citedesk ingest`, `verify` and `eval`."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field


@dataclass
class ProgressLine:
    """Progress of a long verb on stderr: one line rewritten in place in a terminal; in a log (CI, a
    redirect) a line per tenth of each stage, so the log stays readable."""

    enabled: bool = True
    terminal: bool = field(default_factory=lambda: sys.stderr.isatty())
    _shown: dict[str, int] = field(default_factory=dict)

    def __call__(self, label: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        if self.terminal:
            print(f"\r{label}: {done}/{total}   ", end="", file=sys.stderr, flush=True)
            return
        tenth = done * 10 // max(total, 1)
        if tenth > self._shown.get(label, 0):
            self._shown[label] = tenth
            print(f"{label}: {done}/{total}", file=sys.stderr, flush=True)

    def end(self) -> None:
        if self.enabled and self.terminal:
            print(file=sys.stderr)
