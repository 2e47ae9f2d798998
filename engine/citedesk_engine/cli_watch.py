"""`citedesk watch`: watched folders from the command line (watch.py).

citedesk watch add FOLDER      watch it; say what there is to read and what it costs (--sync reads it)
citedesk watch list            the watched folders and what waits in their queue
citedesk watch sync            scan every watched folder and do what waits (Ctrl-C stops safely)
citedesk watch pause FOLDER    changes are found but wait; `resume` lets them through
citedesk watch remove FOLDER   stop watching (its documents stay)
"""

from __future__ import annotations

import argparse
import json
import signal
import threading
from typing import Any

from .api import Engine
from .serialize import plain
from .watch import FolderWatch, WatchEstimate, size_words

ACTIONS = ("add", "list", "sync", "pause", "resume", "remove")


def add_watch_parser(verbs: Any, common: argparse.ArgumentParser) -> None:
    watch = verbs.add_parser(
        "watch", parents=[common], help="keep folders in step: new, changed, moved and deleted files"
    )
    watch.add_argument("action", choices=ACTIONS)
    watch.add_argument("folder", nargs="?", metavar="FOLDER", help="for add, pause, resume and remove")
    watch.add_argument("--sync", action="store_true", help="with add: read the folder's files now")


def watch_verb(engine: Engine, args: argparse.Namespace) -> int:
    watch = FolderWatch(engine)
    if args.action in ("add", "pause", "resume", "remove") and not args.folder:
        print(f"citedesk watch {args.action}: which folder?")
        return 2
    if args.action == "add":
        _, queued = watch.add(args.folder)
        estimate = watch.estimate(queued)
        if not args.sync:
            _say(args, {"watching": args.folder, "waiting": plain(estimate)}, _waiting_words(estimate))
            return 0
        return _sync(watch, args)
    if args.action == "pause":
        watch.pause(args.folder)
    elif args.action == "resume":
        watch.pause(args.folder, paused=False)
    elif args.action == "remove":
        watch.remove(args.folder)
    elif args.action == "sync":
        watch.scan()
        return _sync(watch, args)
    _list(watch, args)
    return 0


def _list(watch: FolderWatch, args: argparse.Namespace) -> None:
    queued = watch.queued()
    folders = watch.folders()
    if args.json:
        print(json.dumps({"folders": plain(folders), "queue": plain(queued)}, ensure_ascii=False))
        return
    if not folders:
        print("No folder is watched. `citedesk watch add FOLDER` watches one.")
    for folder in folders:
        mine = [c for c in queued if c.folder == folder.folder]
        waiting = sum(1 for c in mine if not c.reason)
        state = "paused" if folder.paused else "watching"
        print(f"{state:<9} {folder.folder}: {waiting} change(s) waiting")
        for change in mine:
            if change.reason:
                print(f"  cannot read {change.path}: {change.reason}")


def _sync(watch: FolderWatch, args: argparse.Namespace) -> int:
    cancel = threading.Event()
    previous = signal.signal(signal.SIGINT, lambda *_: cancel.set())  # Ctrl-C stops between files
    read: list[str] = []
    removed: list[str] = []
    failed: list[tuple[str, str]] = []
    try:
        while not cancel.is_set():
            step = watch.apply(limit=5, cancel=cancel)
            read += step.read
            removed += step.removed
            failed += step.failed
            if not args.json:
                for path in step.read:
                    print(f"  read     {path}", flush=True)
                for path in step.removed:
                    print(f"  removed  {path} (its file is gone)", flush=True)
                for path, reason in step.failed:
                    print(f"  failed   {path}: {reason}", flush=True)
            if step.waiting == 0 or not (step.read or step.removed or step.failed):
                break
    finally:
        signal.signal(signal.SIGINT, previous)
    waiting = len([c for c in watch.queued() if not c.reason])
    summary = {"read": read, "removed": removed, "failed": [list(f) for f in failed], "waiting": waiting}
    words = f"{len(read)} read, {len(removed)} removed, {len(failed)} failed; {waiting} waiting"
    _say(args, summary, words)
    if cancel.is_set():
        return 130
    return 1 if failed else 0


def _waiting_words(estimate: WatchEstimate) -> str:
    if not estimate.files and not estimate.removals:
        return "Watching; the library already holds every file of it."
    minutes = estimate.seconds / 60
    took = f"about {minutes:.0f} minutes" if minutes >= 1.5 else "about a minute or less"
    return (
        f"Watching; {estimate.files} file(s) to read ({size_words(estimate.bytes)}, {took}), "
        f"{estimate.removals} to remove. `citedesk watch sync` does it."
    )


def _say(args: argparse.Namespace, data: dict[str, Any], words: str) -> None:
    print(json.dumps(data, ensure_ascii=False) if args.json else words)
