"""Run an ingest in a child process that a test kills with SIGKILL (see test_crash_recovery.py).

usage: crash_driver.py LIBRARY MODE PATH...
MODE  run                 ingest and print one line per event (the parent kills at some line)
      kill-before-commit  SIGKILL itself inside the 2nd manifest commit, before it happens
      kill-after-commit   SIGKILL itself right after the 1st manifest commit, before clean-up
"""

from __future__ import annotations

import os
import signal
import sys

from citedesk_engine import Engine
from citedesk_engine.index.manifest import Manifest
from citedesk_engine.testing import HashEmbedder


def main() -> None:
    library, mode, *paths = sys.argv[1:]
    original = Manifest.commit_version
    calls = {"n": 0}

    def commit_then_maybe_die(self, *args):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if mode == "kill-before-commit" and calls["n"] == 2:
            os.kill(os.getpid(), signal.SIGKILL)
        result = original(self, *args)
        if mode == "kill-after-commit" and calls["n"] == 1:
            os.kill(os.getpid(), signal.SIGKILL)
        return result

    Manifest.commit_version = commit_then_maybe_die  # type: ignore[method-assign]
    with Engine.open(library, embedder=HashEmbedder()) as engine:
        engine.ingest(paths, on_event=lambda event: print(type(event).__name__, flush=True))
    print("DONE", flush=True)


if __name__ == "__main__":
    main()
