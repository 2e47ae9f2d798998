"""The generator slot on a real OpenAI-compatible server: llama-cpp-python's own server (`llama_cpp.server`)
on 127.0.0.1 with the packaged 0.5B model, asked end to end through `Engine.ask`, cancelled, and killed
mid-answer."""

from __future__ import annotations

import collections
import os
import signal
import socket
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from citedesk_engine import Config, EmbedderError, Engine, GeneratorError, ModelsConfig, TokenDelta
from citedesk_engine.config import SMALL, cache_dir
from citedesk_engine.models.endpoint import Endpoint
from citedesk_engine.models.http_models import HttpEmbedder
from citedesk_engine.models.registry import ModelRegistry
from citedesk_engine.types import Decision, Stage

pytestmark = pytest.mark.models

MODEL = "qwen-small"
RIVER = (
    "The Zorblat river is 412 kilometres long. It rises in the Vemmel hills and flows into Lake Orrin.\n\n"
    "The town of Quessa stands on its east bank. Its stone bridge was built in 1873 by the engineer "
    "Ilse Marrow, and it was widened in 1961.\n"
)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _start_server(port: int) -> subprocess.Popen:
    gguf = ModelRegistry(ModelsConfig(generator=SMALL), cache_dir()).generator_path()
    command = [
        sys.executable, "-m", "llama_cpp.server", "--model", str(gguf), "--model_alias", MODEL,
        "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "4096", "--n_threads", "1",
        "--n_threads_batch", str(os.cpu_count() or 1), "--embedding", "true", "--logits_all", "false",
        "--verbose", "false",
    ]  # fmt: skip
    env = {**os.environ, "OMP_WAIT_POLICY": "PASSIVE"}
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # Ready when uvicorn says it is listening; its log is read to the end meanwhile (a full pipe
    # would stall the server), the last lines kept for the error if it exits instead.
    listening, said = threading.Event(), collections.deque(maxlen=40)

    def read_log() -> None:
        for line in process.stderr:  # type: ignore[union-attr]
            said.append(line.decode(errors="replace"))
            if "Uvicorn running on" in said[-1]:
                listening.set()
        listening.set()  # the server exited

    threading.Thread(target=read_log, daemon=True).start()
    if not listening.wait(180):
        process.kill()
        raise RuntimeError("llama_cpp.server did not start within 180 s")
    if not any("Uvicorn running on" in line for line in said):
        process.wait(10)
        raise RuntimeError(f"llama_cpp.server exited: {''.join(said)[-2000:]}")
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=10):
        return process


def _stop(process: subprocess.Popen) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    port = _free_port()
    process = _start_server(port)
    yield f"http://127.0.0.1:{port}"
    _stop(process)


@pytest.fixture(scope="module")
def engine_on_server(server: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    root = tmp_path_factory.mktemp("http-generator")
    (root / "river.txt").write_text(RIVER, encoding="utf-8")
    models = ModelsConfig(generator="http", generator_url=server + "/v1", generator_model=MODEL)
    engine = Engine.open(root / "library", Config(models=models))
    engine.load_generator()  # checks that the server answers and serves the model
    engine.ingest([root / "river.txt"])
    yield engine
    engine.close()


def test_a_question_is_answered_streamed_and_cited_through_the_server(engine_on_server: Engine) -> None:
    pieces: list[str] = []
    answer = engine_on_server.ask(
        "How long is the Zorblat river?",
        on_event=lambda event: pieces.append(event.text) if isinstance(event, TokenDelta) else None,
    )
    assert answer.refusal is None, answer.refusal
    assert "412" in answer.text
    assert len(pieces) > 1 and "412" in "".join(pieces)  # streamed piece by piece
    assert answer.sources and answer.sources[0].path.endswith("river.txt")
    assert answer.claims and all(claim.supported and claim.sources for claim in answer.claims)  # gated


def test_the_gates_refuse_through_the_server_as_without_it(engine_on_server: Engine) -> None:
    answer = engine_on_server.ask("What is the boiling point of liquid nitrogen?")
    assert answer.refusal is not None and answer.refusal.stage is Stage.RELEVANCE
    assert not answer.text


def test_cancel_closes_the_stream_and_the_server_answers_the_next_question(engine_on_server: Engine) -> None:
    cancel = threading.Event()

    def on_event(event: object) -> None:
        if isinstance(event, TokenDelta):
            cancel.set()

    question = "Who built the bridge of Quessa, and when?"
    stopped = engine_on_server.ask(question, on_event=on_event, cancel=cancel)
    assert stopped.decision is Decision.STOPPED  # kept in the conversation as stopped, unverified
    assert not stopped.claims
    answer = engine_on_server.ask("When was the bridge of Quessa built?")
    assert answer.refusal is None and "1873" in answer.text


def test_a_server_killed_mid_answer_is_a_generator_error_naming_it(tmp_path: Path) -> None:
    port = _free_port()
    process = _start_server(port)
    url = f"http://127.0.0.1:{port}"
    try:
        (tmp_path / "river.txt").write_text(RIVER, encoding="utf-8")
        models = ModelsConfig(generator="http", generator_url=url, generator_model=MODEL)
        with Engine.open(tmp_path / "library", Config(models=models)) as engine:
            engine.ingest([tmp_path / "river.txt"])

            def kill_at_first_piece(event: object) -> None:
                if isinstance(event, TokenDelta) and process.poll() is None:
                    process.kill()
                    process.wait()

            with pytest.raises(GeneratorError) as raised:
                engine.ask("Where does the Zorblat river rise?", on_event=kill_at_first_piece)
            assert url in str(raised.value)
            assert "before its answer was complete" in str(raised.value)
            with pytest.raises(GeneratorError, match="connection refused"):
                engine.ask("Where does the Zorblat river rise?")
    finally:
        if process.poll() is None:
            _stop(process)


def test_per_token_embeddings_of_a_chat_model_are_refused_in_words(server: str) -> None:
    with pytest.raises(EmbedderError, match="one vector per token"):
        HttpEmbedder(Endpoint(server, MODEL)).embed(["The Zorblat river is long."])
