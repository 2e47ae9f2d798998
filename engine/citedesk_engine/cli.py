"""`citedesk` headless verbs: ingest, delete, describe, status, models, reconcile, reembed, retrieve, ask,
export (verify and eval: cli_measure.py). Human output or --json."""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
import textwrap
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .api import Engine
from .cli_measure import eval_verb, verify_verb
from .cli_watch import add_watch_parser, watch_verb
from .config import cache_dir, default_library_dir, load_config
from .errors import Cancelled, ConfigError, DocumentNotFound, EngineError
from .events import Event, FileFinished, Progress, StageStarted, TokenDelta
from .export import answer_json, conversation_json, conversation_markdown, meta_json, scope_words
from .graph.wiki import entity_subject, topic_subject
from .models.registry import ModelRegistry
from .serialize import plain
from .types import DocumentMeta, FileResult, FileStatus, GraphStatus

VERBS = (
    "ingest",
    "delete",
    "status",
    "describe",
    "models",
    "reconcile",
    "reembed",
    "graph",
    "retrieve",
    "ask",
    "export",
    "watch",
    "verify",
    "eval",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="citedesk",
        description="CiteDesk: cited answers from your documents.",
        epilog="Without a verb, citedesk opens the window (citedesk gui --library DIR). "
        "citedesk --self-test checks this installation end to end; citedesk --version prints the version.",
    )
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--library", metavar="DIR", help="library folder (default: your user data folder)")
    common.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    common.add_argument("-v", "--verbose", action="store_true", help="log what the engine does")
    verbs = parser.add_subparsers(dest="verb", metavar="VERB")
    ingest = verbs.add_parser("ingest", parents=[common], help="add or refresh files and folders")
    ingest.add_argument("paths", nargs="+", metavar="PATH")
    ingest.add_argument("--authority", type=int, default=None, help="authority tier for these documents")
    ingest.add_argument("--force", action="store_true", help="read unchanged files again (re-index)")
    ingest.add_argument(
        "--no-graph", action="store_true", help="leave the entity graph for later (`citedesk graph`)"
    )
    graph = verbs.add_parser(
        "graph", parents=[common], help="build the entity graph where it is behind; list its topics"
    )
    graph.add_argument("--topics", action="store_true", help="list the topics (communities) found")
    graph.add_argument(
        "--page",
        metavar="NAME",
        help="print the library wiki's page on an entity or topic (written the first time, in seconds)",
    )
    add_watch_parser(verbs, common)
    delete = verbs.add_parser("delete", parents=[common], help="remove a document from the library")
    delete.add_argument("document", metavar="DOC", help="document path or id (see `citedesk status`)")
    describe = verbs.add_parser(
        "describe", parents=[common], help="a document's title, authors and year, to read or to write"
    )
    describe.add_argument("document", metavar="DOC", help="document path or id (see `citedesk status`)")
    describe.add_argument("--title", help="its title ('' clears it)")
    describe.add_argument("--authors", nargs="*", metavar="NAME", help="its authors, each in quotes")
    describe.add_argument("--year", type=int, help="the year it appeared (0 clears it)")
    status = verbs.add_parser("status", parents=[common], help="documents, units, size and models")
    status.add_argument("--documents", action="store_true", help="list every document")
    models = verbs.add_parser("models", parents=[common], help="where each model slot resolves")
    models.add_argument("--no-verify", action="store_true", help="skip hashing the model files")
    verbs.add_parser("reconcile", parents=[common], help="documents whose source is missing or changed")
    verbs.add_parser(
        "reembed", parents=[common], help="embed every passage again after the embedder slot changed"
    )
    retrieve = verbs.add_parser(
        "retrieve", parents=[common], help="ranked passages for a question, no answer"
    )
    retrieve.add_argument("question")
    retrieve.add_argument("--k", type=int, default=None, help="how many passages (default: top_k)")
    _add_documents(retrieve)
    ask = verbs.add_parser("ask", parents=[common], help="a cited answer, or a refusal that says why")
    ask.add_argument("question")
    ask.add_argument("--k", type=int, default=None, help="passages kept after reranking (default: top_k)")
    ask.add_argument("--mode", choices=("strict", "normal", "exploratory"), default=None, help="trust mode")
    ask.add_argument(
        "--strategy",
        choices=("standard", "deep"),
        default="standard",
        help="deep: the model may ask for more searches (facts spread over documents); slower",
    )
    ask.add_argument("--conversation", metavar="ID", help="continue this conversation (follow-up question)")
    ask.add_argument(
        "--as-is",
        action="store_true",
        help="in a conversation, search the question as it stands (no rewrite from the earlier turns)",
    )
    _add_documents(ask)
    export = verbs.add_parser(
        "export", parents=[common], help="a conversation as Markdown or JSON, its evidence quoted"
    )
    export.add_argument(
        "conversation",
        nargs="?",
        metavar="CONVERSATION",
        help="its id (printed by `ask`), or `last`; without it, the conversations are listed",
    )
    export.add_argument("--format", choices=("md", "json"), default="md", help="md (default) or json")
    export.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of the terminal")
    verify = verbs.add_parser(
        "verify", parents=[common], help="measure the per-claim gate on labelled claims"
    )
    verify.add_argument("claims", metavar="CLAIMS.jsonl")
    verify.add_argument(
        "--details", metavar="FILE", help="write one JSON line per claim: label, verdict, what decided"
    )
    evaluate = verbs.add_parser(
        "eval", parents=[common], help="retrieval, answers and refusals on labelled questions"
    )
    evaluate.add_argument("questions", metavar="QUESTIONS.jsonl")
    evaluate.add_argument(
        "--corpus", required=True, metavar="DIR", help="the documents the questions are about"
    )
    evaluate.add_argument("--limit", type=int, default=None, help="only the first N questions")
    evaluate.add_argument("--k", type=int, default=None, help="passages kept for answering (default: top_k)")
    evaluate.add_argument("--compare", action="store_true", help="also lexical only, vector only, hybrid")
    evaluate.add_argument("--no-answers", action="store_true", help="retrieval only: skip generation")
    evaluate.add_argument(
        "--details",
        metavar="FILE",
        help="write one JSON line per question: decision, stage, answer, expected",
    )
    return parser


def verb_first(argv: Sequence[str]) -> list[str]:
    """The arguments with the verb first: the options every verb takes (`--library DIR`, `--json`,
    `-v`) may come before it, as docs/cli.md writes them ("citedesk --library DIR ask ..." was
    refused as "unrecognized arguments")."""
    args, front = list(argv), []
    while args and (
        args[0] in ("--library", "--json", "-v", "--verbose") or args[0].startswith("--library=")
    ):
        take = 2 if args[0] == "--library" else 1
        front, args = front + args[:take], args[take:]
    if front and args and args[0] in VERBS:
        return [args[0], *front, *args[1:]]
    return list(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(verb_first(sys.argv[1:] if argv is None else argv))
    if args.verb is None:
        build_parser().print_help()
        return 2
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, stream=sys.stderr)
    try:
        if args.verb == "models":  # needs no library: it must work before one exists
            return _models(models_registry(args.library), args)
        if args.verb == "verify":  # needs no library either: claims come with their evidence
            return verify_verb(args)
        if args.verb == "eval":
            return eval_verb(args)
        with Engine.open(args.library) as engine:
            handler = {
                "ingest": _ingest,
                "delete": _delete,
                "describe": _describe,
                "status": _status,
                "reconcile": _reconcile,
                "reembed": _reembed,
                "graph": _graph,
                "ask": _ask,
                "retrieve": _retrieve,
                "export": _export,
                "watch": watch_verb,
            }[args.verb]
            return handler(engine, args)
    except EngineError as exc:
        if args.json:
            print(json.dumps({"error": str(exc), "kind": type(exc).__name__}))
        else:
            print(f"citedesk: {exc}", file=sys.stderr)
        return 1


def _add_documents(verb: argparse.ArgumentParser) -> None:
    verb.add_argument(
        "--documents",
        nargs="+",
        metavar="DOC",
        help="search only these documents: paths, ids (see `citedesk status --documents`) or folders",
    )


def _ingest(engine: Engine, args: argparse.Namespace) -> int:
    cancel = threading.Event()
    previous = signal.signal(signal.SIGINT, lambda *_: cancel.set())  # Ctrl-C stops at a safe point
    try:
        report = engine.ingest(
            args.paths,
            on_event=None if args.json else _print_event,
            cancel=cancel,
            authority=args.authority,
            force=args.force,
        )
        # The slow path after the files are committed (askable already); Ctrl-C keeps what was read.
        graph = None
        if not report.cancelled and not args.no_graph and engine.graph_enabled():
            try:
                graph = engine.build_graph(on_event=None if args.json else _print_event, cancel=cancel)
            except Cancelled:
                graph = engine.graph_status()
    finally:
        signal.signal(signal.SIGINT, previous)
    if args.json:
        print(
            json.dumps(
                {
                    "files": [_file_json(f) for f in report.files],
                    "cancelled": report.cancelled,
                    "units": report.units,
                    "seconds": report.times.as_dict(),
                    "graph": plain(graph) if graph is not None else None,
                },
                ensure_ascii=False,
            )
        )
    else:
        counts = ", ".join(f"{report.count(s)} {s.value}" for s in FileStatus if report.count(s))
        print(f"{len(report.files)} files: {counts}; {report.units} units")
        if graph is not None:
            print(f"Entity graph: {graph_words(graph)}")
    if report.cancelled:
        return 130
    return 1 if report.count(FileStatus.FAILED) else 0


def _print_event(event: Event) -> None:
    if isinstance(event, FileFinished) and isinstance(event.result, FileResult):
        r = event.result
        detail = f"{r.units} units" if r.status is not FileStatus.FAILED else r.reason
        print(f"  {r.status.value:<9} {r.path}: {detail}", flush=True)
        for warning in r.warnings:
            print(f"    warning: {warning}", flush=True)
    elif isinstance(event, Progress) and event.stage == "embed" and event.total > 256:
        print(f"    embedding {event.done}/{event.total}", file=sys.stderr, flush=True)
    elif isinstance(event, Progress) and event.stage == "pages" and event.total > 64:
        print(f"    reading pages {event.done}/{event.total}", file=sys.stderr, flush=True)
    elif (
        isinstance(event, Progress)
        and event.stage == "graph"
        and (event.done % 256 < 64 or event.done == event.total)
    ):
        print(f"    entity graph: {event.done}/{event.total} passages read", file=sys.stderr, flush=True)
    elif isinstance(event, StageStarted) and event.stage == "ingest":
        print(f"Ingesting {event.subject}", flush=True)


def _file_json(result: FileResult) -> dict[str, Any]:
    return {
        "path": result.path,
        "document": result.document,
        "status": result.status.value,
        "reason": result.reason,
        "units": result.units,
        "pages": result.pages,
        "language": result.language,
        "warnings": list(result.warnings),
    }


def _reembed(engine: Engine, args: argparse.Namespace) -> int:
    cancel = threading.Event()
    previous = signal.signal(signal.SIGINT, lambda *_: cancel.set())  # the old vectors stay on Ctrl-C
    try:
        units = engine.reembed(on_event=None if args.json else _print_event, cancel=cancel)
    finally:
        signal.signal(signal.SIGINT, previous)
    if args.json:
        print(json.dumps({"reembedded": units, "embedder": engine.embedder().name}, ensure_ascii=False))
    else:
        print(f"Embedded {units} passages again with {engine.embedder().name}")
    return 0


def _graph(engine: Engine, args: argparse.Namespace) -> int:
    if not engine.graph_enabled():
        raise ConfigError(
            "The entity graph is off: [retrieval] signals in config.toml leave out graph and community."
        )
    cancel = threading.Event()
    previous = signal.signal(signal.SIGINT, lambda *_: cancel.set())  # what was read is kept on Ctrl-C
    try:
        status = engine.build_graph(on_event=None if args.json else _print_event, cancel=cancel)
    except Cancelled:
        status = engine.graph_status()
    finally:
        signal.signal(signal.SIGINT, previous)
    if args.page is not None and status.current:
        return _wiki_page(engine, args.page, args.json)
    topics = engine.library.graph.communities() if args.topics else []
    if args.json:
        print(json.dumps({**plain(status), "topics": [plain(t) for t in topics]}, ensure_ascii=False))
    else:
        print(f"Entity graph: {graph_words(status)}")
        for topic in topics:
            print(f"  {topic.units:>6} passages  {topic.nodes:>5} entities  {topic.label}")
    return 0 if status.current else 130


def _wiki_page(engine: Engine, name: str, as_json: bool) -> int:
    wanted = " ".join(name.lower().split())
    topic = next((t for t in engine.topics() if t.label.lower() == wanted), None)
    nodes = engine.entities(wanted)
    exact = [n for n in nodes if wanted in (n.node, n.label.lower())]
    if topic is not None:
        subject = topic_subject(topic.label)
    elif exact or nodes:
        subject = entity_subject((exact or nodes)[0].node)
    else:
        raise DocumentNotFound(
            f"No entity or topic named {name!r} in the library's graph (`citedesk graph --topics` lists "
            "the topics)."
        )
    cancel = threading.Event()
    previous = signal.signal(signal.SIGINT, lambda *_: cancel.set())
    try:
        page = engine.wiki(subject, cancel=cancel)
    except Cancelled:
        print("Stopped: the page was not written.", file=sys.stderr)
        return 130
    finally:
        signal.signal(signal.SIGINT, previous)
    if as_json:
        print(json.dumps(plain(page), ensure_ascii=False))
        return 0
    numbers = {source.unit_id: n for n, source in enumerate(page.sources, 1)}
    print(page.title)
    sentences = [
        f"{c.text} " + "".join(f"[{numbers[u]}]" for u in c.sources if u in numbers) for c in page.claims
    ]
    print(textwrap.fill(" ".join(sentences), 100) if sentences else "(no sentence its passages support)")
    if page.dropped:
        print(f"({page.removed} sentences removed: no passage supports them; {page.left_out} left out)")
    for n, source in enumerate(page.sources, 1):
        where = f", page {source.page}" if source.page else f", {source.section}" if source.section else ""
        print(f"  [{n}] {Path(source.path).name}{where}")
    return 0


def graph_words(status: GraphStatus) -> str:
    """The slow path's state in words (`citedesk status`, `ingest`, `graph`)."""
    if not status.enabled:
        return "off ([retrieval] signals leave it out)"
    read = f"{status.documents} of {status.documents + status.pending} documents read"
    if status.pending or not status.current:
        return f"{read}; the rest is read at the next `citedesk graph` or ingest, or by the window"
    pages = f", {status.pages:,} wiki pages" if status.pages else ""
    return f"{read}, {status.nodes:,} entities in {status.communities:,} topics{pages}"


def _delete(engine: Engine, args: argparse.Namespace) -> int:
    record = engine.delete(args.document)
    if args.json:
        print(json.dumps({"deleted": record.document, "units": record.units}, ensure_ascii=False))
    else:
        print(f"Deleted {record.document} ({record.units} units)")
    return 0


def _describe(engine: Engine, args: argparse.Namespace) -> int:
    document = engine.resolve(args.document)
    if args.title is not None or args.authors is not None or args.year is not None:
        meta = engine.describe(document, title=args.title, authors=args.authors, year=args.year)
    else:
        meta = engine.metadata().get(document, DocumentMeta())
    if args.json:
        print(json.dumps({"document": document, **meta_json(meta)}, ensure_ascii=False))
        return 0
    where = {"file": "from the file's properties", "you": "as you wrote it"}.get(meta.source, "none known")
    print(f"{document} ({where})")
    print(f"  title:   {meta.title or '-'}")
    print(f"  authors: {'; '.join(meta.authors) or '-'}")
    print(f"  year:    {meta.year or '-'}")
    print(f"  cited as: {meta.label or Path(document).name}")
    return 0


def _status(engine: Engine, args: argparse.Namespace) -> int:
    status = engine.status()
    documents = engine.documents()
    warnings = engine.warnings()
    if args.json:
        payload = plain(status)
        payload["document_list"] = [
            {**plain(d), "warnings": list(warnings.get(d.document, ()))} for d in documents
        ]
        print(json.dumps(payload, ensure_ascii=False))
        return 0
    print(f"Library   {status.library_dir}")
    print(f"Documents {status.documents}")
    print(f"Units     {status.units}")
    print(f"Size      {status.size_bytes / 1e6:,.1f} MB")
    for model in status.models:
        print(f"Model     {model.slot:<9} {model.source:<11} {model.path or '-'}")
    if status.graph is not None:
        print(f"Graph     {graph_words(status.graph)}")
    if args.documents:
        for d in documents:
            print(f"  {d.kind:<8} {d.units:>6} units  {d.language:<3} {d.document}")
            for warning in warnings.get(d.document, ()):
                print(f"      warning: {warning}")
    return 0


def models_registry(library: str | None) -> ModelRegistry:
    folder = Path(library).expanduser() if library else default_library_dir()
    return ModelRegistry(load_config(folder / "config.toml").models, cache_dir())


def _models(registry: ModelRegistry, args: argparse.Namespace) -> int:
    infos = registry.describe(verify=not args.no_verify)
    if args.json:
        print(json.dumps({"models": [plain(m) for m in infos]}, ensure_ascii=False))
    else:
        for m in infos:
            state = "verified" if m.verified else "NOT VERIFIED"
            print(f"{m.slot:<9} {m.source:<11} {m.size_bytes / 1e6:>8.1f} MB  {state:<12} {m.path or '-'}")
            print(f"{'':<9} {m.detail}")
    return 0 if all(m.verified for m in infos) else 1


def _reconcile(engine: Engine, args: argparse.Namespace) -> int:
    drift = engine.reconcile()
    if args.json:
        print(json.dumps({"drift": [plain(d) for d in drift]}, ensure_ascii=False))
    else:
        for d in drift:
            print(f"{d.kind.value:<8} {d.document}: {d.detail}")
        print(f"{len(drift)} documents need attention" if drift else "Every document matches its source.")
    return 0


def _ask(engine: Engine, args: argparse.Namespace) -> int:
    cancel = threading.Event()
    previous = signal.signal(signal.SIGINT, lambda *_: cancel.set())

    def stream(event: Event) -> None:
        if isinstance(event, TokenDelta):
            print(event.text, end="", file=sys.stderr, flush=True)
        elif isinstance(event, StageStarted) and event.stage == "lookup":
            print(f"(looking up: {event.subject})", file=sys.stderr, flush=True)

    try:
        answer = engine.ask(
            args.question,
            k=args.k,
            mode=args.mode,
            strategy=args.strategy,
            conversation=args.conversation,
            follow_up=not args.as_is,
            documents=args.documents,
            on_event=None if args.json else stream,
            cancel=cancel,
        )
    finally:
        signal.signal(signal.SIGINT, previous)
    if args.json:
        print(json.dumps(answer_json(answer), ensure_ascii=False))
        return 0
    print(file=sys.stderr)
    if answer.scope:
        print(f"(asked in: {scope_words(answer.scope)})")
    if answer.searched:
        print(f"(searched as: {answer.searched})")
    if answer.refusal is not None:
        print(f"REFUSED at stage {answer.refusal.stage.value}: {answer.refusal.reason}")
    else:
        if answer.quote:
            print("(the model found no answer: the passage's own sentence, quoted)")
        print(answer.text)
        for claim in answer.claims:
            if claim.supported and claim.caution:
                print(f"(unsure: {claim.text!r}: {claim.caution})")
        if answer.removed_claims:
            print(f"({answer.removed_claims} unsupported sentence(s) removed)")
        for number, source in enumerate(answer.sources, start=1):
            where = f"p. {source.page}" if source.page else source.section
            print(f"  [{number}] {source.path} {where}: " + " ".join(source.passage.split())[:200])
    for conflict in answer.conflicts:
        print(f"  conflict ({conflict.kind}): {conflict.detail}")
    print(f"conversation {answer.conversation}")
    return 0


def _export(engine: Engine, args: argparse.Namespace) -> int:
    listed = engine.conversations()  # newest first
    if args.conversation is None:
        if args.json:
            print(json.dumps([plain(info) for info in listed], ensure_ascii=False))
            return 0
        if not listed:
            print("This library has no conversations yet: ask a question first.")
            return 0
        for info in listed:
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(info.updated))
            print(f"{info.id}  {when}  {info.turns:>3} question(s)  {info.title}")
        print("Name one to export it: citedesk export ID (or `last`) [--format md|json] [-o FILE]")
        return 0
    wanted = listed[0].id if args.conversation == "last" and listed else args.conversation
    answers = engine.answers(wanted)  # says so when there is no such conversation
    title = next((info.title for info in listed if info.id == wanted), answers[0].question if answers else "")
    if args.json or args.format == "json":
        text = json.dumps(conversation_json(wanted, title, answers), ensure_ascii=False, indent=1) + "\n"
    else:
        text = conversation_markdown(title, answers)
    if args.output:
        try:
            Path(args.output).expanduser().write_text(text, encoding="utf-8")
        except OSError as exc:
            print(f"citedesk: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
            return 1
        print(f"{len(answers)} answer(s) written to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def _retrieve(engine: Engine, args: argparse.Namespace) -> int:
    result = engine.retrieve(args.question, args.k, documents=args.documents)
    documents = {d.document: d for d in engine.documents()}
    rows = []
    for c in result.candidates:
        scores: dict[str, Any] = {
            name: {"rank": c.ranks[name], "score": c.scores[name]} for name in sorted(c.ranks)
        }
        scores["fused"] = c.fused
        scores["rerank"] = c.rerank
        rows.append(
            {
                "unit_id": c.unit.unit_id,
                "document": c.unit.document,
                "path": documents[c.unit.document].source_path if c.unit.document in documents else "",
                "page": c.unit.page,
                "section": c.unit.section,
                "char_start": c.unit.char_start,
                "char_end": c.unit.char_end,
                "passage": c.unit.passage,
                "scores": scores,
            }
        )
    if args.json:
        print(json.dumps({"candidates": rows, "trace": [plain(t) for t in result.trace]}, ensure_ascii=False))
        return 0
    if not rows:
        print(
            "Nothing found." if documents else "The library is empty: add documents with `citedesk ingest`."
        )
    for number, row in enumerate(rows, start=1):
        where = f"p. {row['page']}" if row["page"] else row["section"] or ""
        ranks = ", ".join(f"{n} #{v['rank'] + 1}" for n, v in row["scores"].items() if isinstance(v, dict))
        print(
            f"[{number}] {Path(row['document']).name} {where}  ({ranks}; fused {row['scores']['fused']:.4f})"
        )
        print("    " + " ".join(row["passage"].split())[:300])
    return 0


if __name__ == "__main__":
    sys.exit(main())
