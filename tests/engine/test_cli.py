"""The `citedesk` command as a user runs it: a real process, the real embedder, JSON on stdout."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import factories
import pytest

pytestmark = pytest.mark.models
CITEDESK = Path(sys.executable).with_name("citedesk")


def citedesk(*args: str) -> tuple[int, dict]:
    result = subprocess.run([str(CITEDESK), *args], capture_output=True, text=True, timeout=600)
    lines = result.stdout.strip().splitlines()
    return result.returncode, json.loads(lines[-1]) if lines else {}


def test_ingest_status_delete_reconcile(tmp_path: Path) -> None:
    library = str(tmp_path / "lib")
    docs = tmp_path / "my docs"
    factories.mixed_folder(docs)
    factories.encrypted_pdf(docs / "locked.pdf")
    (docs / "empty.txt").write_text("")
    code, out = citedesk("ingest", str(docs), "--library", library, "--json")
    assert code == 1  # some files failed
    files = {Path(f["path"]).name: f for f in out["files"]}
    assert set(files["report.pdf"]) >= {"path", "document", "status", "reason", "units"}
    assert files["report.pdf"]["status"] == "ingested" and files["report.pdf"]["units"] > 0
    assert files["locked.pdf"]["status"] == "failed" and "password" in files["locked.pdf"]["reason"]
    assert files["empty.txt"]["status"] == "failed" and "empty" in files["empty.txt"]["reason"]
    (docs / "locked.pdf").unlink()
    (docs / "empty.txt").unlink()
    code, out = citedesk("ingest", str(docs), "--library", library, "--json")
    assert code == 0 and {f["status"] for f in out["files"]} == {"unchanged"}

    code, status = citedesk("--library", library, "status", "--json")  # options before the verb too
    assert code == 0 and status["documents"] == 9 and status["units"] >= 9
    slots = {m["slot"] for m in status["models"]}
    assert slots == {"embedder", "generator", "reranker", "verifier", "reader"}

    code, out = citedesk("delete", str(docs / "plain.txt"), "--library", library, "--json")
    assert code == 0 and out["deleted"].endswith("plain.txt")
    code, out = citedesk("delete", str(docs / "plain.txt"), "--library", library, "--json")
    assert code == 1 and "not in the library" in out["error"]

    (docs / "notes.md").unlink()
    code, out = citedesk("reconcile", "--library", library, "--json")
    assert code == 0 and [(Path(d["document"]).name, d["kind"]) for d in out["drift"]] == [
        ("notes.md", "missing")
    ]


def test_a_question_scoped_to_documents_from_the_command_line(tmp_path: Path) -> None:
    library = str(tmp_path / "lib")
    docs = tmp_path / "docs"
    factories.mixed_folder(docs)
    assert citedesk("ingest", str(docs), "--library", library, "--json")[0] == 0
    question = "What opened in 1880 on the river?"
    code, out = citedesk(
        "retrieve", question, "--library", library, "--json", "--documents", str(docs / "plain.txt")
    )
    assert code == 0 and out["candidates"]
    assert {Path(c["path"]).name for c in out["candidates"]} == {"plain.txt"}
    code, out = citedesk(
        "retrieve",
        question,
        "--library",
        library,
        "--json",
        "--documents",
        str(docs / "page.html"),
        str(docs / "notes.md"),
    )
    assert code == 0 and {Path(c["path"]).name for c in out["candidates"]} <= {"page.html", "notes.md"}
    code, out = citedesk(
        "ask", question, "--library", library, "--json", "--documents", str(tmp_path / "gone.pdf")
    )
    assert code == 1 and "gone.pdf is not in the library" in out["error"]


def test_models_verb_reports_each_slot(tmp_path: Path) -> None:
    code, out = citedesk("models", "--library", str(tmp_path / "lib"), "--json")
    assert code == 0
    slots = {m["slot"]: m for m in out["models"]}
    assert slots["embedder"]["verified"] and slots["generator"]["verified"]
    assert slots["generator"]["path"].endswith(".gguf") and slots["generator"]["size_bytes"] > 400_000_000


def test_library_in_use_is_a_clear_error(tmp_path: Path) -> None:
    from citedesk_engine import Engine
    from citedesk_engine.testing import HashEmbedder

    with Engine.open(tmp_path / "lib", embedder=HashEmbedder()):
        code, out = citedesk("status", "--library", str(tmp_path / "lib"), "--json")
    assert code == 1 and "in use by another CiteDesk process" in out["error"]


def test_ask_json_gives_where_each_claim_stands_and_each_boxs_characters() -> None:
    from citedesk_engine.cli import answer_json
    from citedesk_engine.types import Answer, Box, Claim, Decision, SourceRef

    box = Box(2, 10.0, 20.0, 200.0, 32.0, 100, 160)
    source = SourceRef("u1", "/docs/a.pdf", "/docs/a.pdf", 2, (box,), 100, 160, "x" * 60)
    claim = Claim("4.2 million", True, ("u1",), "the passage's answer", 1.0, (("u1", 120, 150),))
    out = json.loads(
        json.dumps(
            answer_json(Answer("Q?", Decision.ANSWERED, "4.2 million [1]", (claim,), (source,), (), ()))
        )
    )
    assert out["claims"][0]["evidence"] == [["u1", 120, 150]]
    assert out["sources"][0]["boxes"] == [[2, 10.0, 20.0, 200.0, 32.0, 100, 160, -1.0]]
    assert out["sources"][0]["ocr_confidence"] is None  # a text layer's line, not OCR's


def test_a_library_wiki_page_from_the_command_line(tmp_path: Path) -> None:
    library = str(tmp_path / "lib")
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "bridge.txt").write_text(
        "The Vasco da Gama Bridge crosses the Tagus river near Lisbon. The Vasco da Gama Bridge was opened "
        "to traffic in March 1998, in time for Expo 98. Lisbon has another bridge over the Tagus.",
        encoding="utf-8",
    )
    code, _ = citedesk("ingest", str(docs), "--library", library, "--json")
    assert code == 0
    code, page = citedesk("graph", "--page", "Vasco da Gama Bridge", "--library", library, "--json")
    assert code == 0 and page["title"] == "Vasco da Gama Bridge"
    cited = {s["unit_id"] for s in page["sources"]}
    for claim in page["claims"]:  # whatever the model wrote, only what a passage holds whole is kept
        assert claim["supported"] and set(claim["sources"]) <= cited and "Vasco da Gama" in claim["text"]
    assert all(d["why"] for d in page["dropped"])
    assert citedesk("graph", "--page", "vasco da gama bridge", "--library", library, "--json") == (0, page)
    code, out = citedesk("graph", "--page", "Atlantis", "--library", library, "--json")
    assert code == 1 and "No entity or topic named 'Atlantis'" in out["error"]


def test_watching_a_folder_from_the_command_line(tmp_path: Path) -> None:
    library = str(tmp_path / "lib")
    docs = tmp_path / "watched"
    docs.mkdir()
    (docs / "tides.txt").write_text("Spring tides occur at the new and the full moon.\n")
    factories.encrypted_pdf(docs / "locked.pdf")
    code, out = citedesk("watch", "add", str(docs), "--library", library, "--json")
    assert code == 0 and out["waiting"]["files"] == 2  # said, not read
    code, status = citedesk("--library", library, "status", "--json")  # options before the verb too
    assert status["documents"] == 0
    code, out = citedesk("watch", "sync", "--library", library, "--json")
    assert code == 1 and [Path(p).name for p in out["read"]] == ["tides.txt"]
    assert [Path(p).name for p, _ in out["failed"]] == ["locked.pdf"] and out["waiting"] == 0
    (docs / "tides.txt").unlink()
    code, out = citedesk("watch", "sync", "--library", library, "--json")
    assert code == 0 and [Path(p).name for p in out["removed"]] == ["tides.txt"]  # the locked PDF waits
    code, out = citedesk("watch", "list", "--library", library, "--json")
    assert [f["folder"] for f in out["folders"]] == [str(docs)]
    assert [(Path(c["path"]).name, "password" in c["reason"]) for c in out["queue"]] == [("locked.pdf", True)]
    code, out = citedesk("watch", "remove", str(docs), "--library", library, "--json")
    assert code == 0 and out == {"folders": [], "queue": []}
