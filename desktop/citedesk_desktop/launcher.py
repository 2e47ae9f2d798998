"""The `citedesk` command: headless verbs go to the engine CLI; `--self-test` checks the installation;
no verb (or `gui`) opens the app."""

from __future__ import annotations

import multiprocessing
import sys
from collections.abc import Sequence

from citedesk_engine.cli import VERBS, verb_first
from citedesk_engine.cli import main as engine_main


def main(argv: Sequence[str] | None = None) -> int:
    # The worker processes (the entity reader, PDF text layers) start this program again (spawn): in
    # a frozen build, freeze_support runs the worker instead of the app.
    multiprocessing.freeze_support()
    args = verb_first(sys.argv[1:] if argv is None else argv)
    if args and (args[0] in VERBS or args[0] in ("-h", "--help")):
        return engine_main(args)
    if args[:1] == ["--self-test"]:
        from citedesk_engine.selftest import main as self_test

        return self_test()
    if args[:1] == ["--version"]:
        from citedesk_engine import __version__

        print(f"citedesk {__version__}")
        return 0
    if args[:1] == ["gui"]:
        args = args[1:]
    from .app import run_app  # Qt is imported only when the window is wanted

    return run_app(args)


if __name__ == "__main__":
    sys.exit(main())
