"""Model slots on an OpenAI-compatible server: where a server may be, and what the client does with
every way a server can answer (a scripted loopback server; the real llama.cpp server is in
test_http_server_real.py)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pytest
from citedesk_engine import (
    Cancelled,
    Config,
    ConfigError,
    EmbedderError,
    Engine,
    GeneratorError,
    ModelsConfig,
)
from citedesk_engine.config import load_config, save_config
from citedesk_engine.models.endpoint import Endpoint, base_url, endpoint_state, is_loopback
from citedesk_engine.models.http_models import HttpEmbedder, HttpGenerator
from citedesk_engine.models.registry import ModelRegistry
from citedesk_engine.testing import HashEmbedder

Reply = Callable[[BaseHTTPRequestHandler, dict], None]


class _Scripted(BaseHTTPRequestHandler):
    """Answers each request with the `reply` function the test set on the server."""

    def do_POST(self) -> None:  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append({"path": self.path, "auth": self.headers.get("Authorization"), **body})
        self.server.reply(self, body)

    def do_GET(self) -> None:  # noqa: N802
        self.server.requests.append({"path": self.path})
        _json(self, 200, {"object": "list", "data": [{"id": "tiny-model"}]})

    def log_message(self, *args) -> None:  # noqa: ANN002
        pass


def _json(handler: BaseHTTPRequestHandler, status: int, payload: object) -> None:
    data = json.dumps(payload).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(data)))
    handler.end_headers()
    handler.wfile.write(data)


def _events(handler: BaseHTTPRequestHandler, lines: list[str], pause: float = 0.0) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "text/event-stream")
    handler.end_headers()
    for line in lines:
        handler.wfile.write(line.encode() + b"\n\n")
        handler.wfile.flush()
        # Silent for `pause` seconds, or until the test is over (the fixture sets `released`).
        handler.server.released.wait(pause)  # type: ignore[attr-defined]


def _chunk(text: str) -> str:
    return "data: " + json.dumps({"choices": [{"index": 0, "delta": {"content": text}}]})


@pytest.fixture
def server() -> Iterator[ThreadingHTTPServer]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Scripted)
    httpd.daemon_threads = True
    httpd.requests = []
    httpd.released = threading.Event()
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.released.set()
    httpd.shutdown()
    httpd.server_close()


def _url(httpd: ThreadingHTTPServer) -> str:
    return f"http://127.0.0.1:{httpd.server_port}"


MESSAGES = [{"role": "user", "content": "Say it."}]


@pytest.mark.parametrize(
    ("url", "loopback"),
    [
        ("http://127.0.0.1:8080", True),
        ("http://127.9.9.9", True),
        ("http://[::1]:11434", True),
        ("http://LOCALHOST:1234/v1", True),
        ("http://0.0.0.0:8080", False),
        ("http://10.0.0.5:8080", False),
        ("https://api.example.org", False),
        ("http://127.0.0.1.example.org", False),
    ],
)
def test_only_this_machines_loopback_counts_as_local(url: str, loopback: bool) -> None:
    assert is_loopback(url) is loopback


def test_a_remote_server_needs_allow_remote_and_is_listed_for_confirmation() -> None:
    with pytest.raises(ConfigError, match="not this computer.*allow_remote = true"):
        ModelsConfig(generator="http", generator_url="http://192.168.1.20:8080", generator_model="m")
    with pytest.raises(ConfigError, match="reranker_url points at rerank.example.org"):
        ModelsConfig(reranker="http", reranker_url="https://rerank.example.org/v1")
    models = ModelsConfig(
        generator="http", generator_url="http://192.168.1.20:8080", generator_model="m", allow_remote=True
    )
    assert models.remote_servers() == (("generator", "http://192.168.1.20:8080"),)
    local = ModelsConfig(generator="http", generator_url="http://127.0.0.1:8080/v1/")
    assert local.remote_servers() == ()
    assert local.endpoint("generator").url == "http://127.0.0.1:8080"  # Ollama's guides add /v1
    assert base_url("http://h:1/v1") == "http://h:1"


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"generator": "http"}, "needs generator_url"),
        ({"generator": "http", "generator_url": "ftp://127.0.0.1"}, "must be an http:// or https://"),
        ({"embedder": "http", "embedder_url": "http://127.0.0.1:9"}, "needs embedder_model"),
    ],
)
def test_server_settings_are_checked_when_read(settings: dict, message: str, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=message):
        ModelsConfig(**settings)
    path = tmp_path / "config.toml"
    path.write_text("[models]\n" + "".join(f'{k} = "{v}"\n' for k, v in settings.items()), encoding="utf-8")
    with pytest.raises(ConfigError, match=message):
        load_config(path)


def test_server_settings_round_trip_and_the_key_stays_out_of_the_file(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("CITEDESK_TEST_KEY", "sk-secret-123")
    models = ModelsConfig(
        generator="http",
        generator_url="http://127.0.0.1:8080",
        generator_model="qwen",
        api_key_env="CITEDESK_TEST_KEY",
    )
    path = tmp_path / "config.toml"
    save_config(path, Config(models=models))
    assert "sk-secret-123" not in path.read_text(encoding="utf-8")
    assert load_config(path).models == models


def test_the_generator_streams_pieces_and_sends_the_request_of_the_packaged_one(server) -> None:
    server.reply = lambda h, body: _events(
        h,
        [
            ": ping",
            _chunk("The river "),
            "data: " + json.dumps({"choices": []}),
            _chunk("is 412 km."),
            "data: [DONE]",
        ],
    )
    pieces: list[str] = []
    generator = HttpGenerator(Endpoint(_url(server), "tiny-model"))
    assert generator.generate(MESSAGES, max_tokens=64, on_token=pieces.append) == "The river is 412 km."
    assert pieces == ["The river ", "is 412 km."]
    request = server.requests[-1]
    assert request["path"] == "/v1/chat/completions"
    assert request["model"] == "tiny-model" and request["messages"] == MESSAGES
    assert request["temperature"] == 0.0 and request["stream"] is True and request["max_tokens"] == 64
    assert request["auth"] is None


def test_the_api_key_is_read_from_the_named_variable(server, monkeypatch) -> None:
    server.reply = lambda h, body: _events(h, [_chunk("ok"), "data: [DONE]"])
    endpoint = Endpoint(_url(server), "tiny-model", api_key_env="CITEDESK_TEST_KEY")
    monkeypatch.delenv("CITEDESK_TEST_KEY", raising=False)
    with pytest.raises(ConfigError, match="CITEDESK_TEST_KEY, which is not set"):
        HttpGenerator(endpoint).generate(MESSAGES, max_tokens=8)
    monkeypatch.setenv("CITEDESK_TEST_KEY", "sk-1")
    assert HttpGenerator(endpoint).generate(MESSAGES, max_tokens=8) == "ok"
    assert server.requests[-1]["auth"] == "Bearer sk-1"


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        (
            lambda h, b: _json(h, 404, {"error": {"message": "model 'x' not found"}}),
            "404.*model 'x' not found.*serves the model",
        ),
        (lambda h, b: _json(h, 401, {"error": "bad key"}), "401.*bad key.*API key"),
        (lambda h, b: _json(h, 500, "boom"), "500"),
        (lambda h, b: _events(h, [_chunk("half an ")]), "stopped before its answer was complete"),
        (lambda h, b: _events(h, ["data: {not json"]), "no JSON object"),
        (lambda h, b: _events(h, ['data: {"id": 1}']), "without choices"),
        (
            lambda h, b: _events(h, ['data: {"error": {"message": "context full"}}']),
            "stopped with an error: context full",
        ),
    ],
)
def test_every_broken_answer_is_a_generator_error_naming_the_url(server, reply: Reply, message: str) -> None:
    server.reply = reply
    with pytest.raises(GeneratorError, match=message) as raised:
        HttpGenerator(Endpoint(_url(server), "tiny-model")).generate(MESSAGES, max_tokens=8)
    assert _url(server) in str(raised.value)


def test_no_server_and_a_silent_server_are_errors_in_words(server) -> None:
    gone = ThreadingHTTPServer(("127.0.0.1", 0), _Scripted)
    port = gone.server_port
    gone.server_close()
    with pytest.raises(GeneratorError, match=f"127.0.0.1:{port}.*connection refused"):
        HttpGenerator(Endpoint(f"http://127.0.0.1:{port}", "m")).generate(MESSAGES, max_tokens=8)
    server.reply = lambda h, b: _events(h, [_chunk("a"), _chunk("b")], pause=3)
    with pytest.raises(GeneratorError, match="did not answer within 1 s"):
        HttpGenerator(Endpoint(_url(server), "m", timeout=1)).generate(MESSAGES, max_tokens=8)


def test_cancel_closes_a_stream_at_once_even_while_the_server_is_silent(server) -> None:
    server.reply = lambda h, b: _events(h, [_chunk("first"), _chunk("late")], pause=30)
    cancel = threading.Event()
    started = time.monotonic()
    with pytest.raises(Cancelled):
        HttpGenerator(Endpoint(_url(server), "m")).generate(
            MESSAGES, max_tokens=8, on_token=lambda piece: cancel.set(), cancel=cancel
        )
    assert time.monotonic() - started < 10  # not the 30 s the server waits before its next piece


def test_the_embedder_orders_and_normalises_vectors_and_refuses_other_shapes(server) -> None:
    def reply(handler: BaseHTTPRequestHandler, body: dict) -> None:
        texts = body["input"]
        if texts == ["per token"]:
            _json(handler, 200, {"data": [{"index": 0, "embedding": [[1.0, 2.0], [3.0, 4.0]]}]})
            return
        rows = [{"index": i, "embedding": [float(len(t)), 1.0, 0.0]} for i, t in enumerate(texts)]
        _json(handler, 200, {"object": "list", "data": list(reversed(rows))})

    server.reply = reply
    embedder = HttpEmbedder(Endpoint(_url(server), "tiny-embed"), batch_size=2)
    vectors = embedder.embed(["a", "bbb", "cc"])
    assert vectors.shape == (3, 3) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
    assert vectors[1][0] > vectors[2][0] > vectors[0][0]  # in the texts' order, not the server's
    assert embedder.dimension == 3 and embedder.name == "http:tiny-embed"
    assert [len(r["input"]) for r in server.requests] == [2, 1]
    with pytest.raises(EmbedderError, match="one vector per token.*pooling"):
        embedder.embed(["per token"])


def test_an_engine_records_the_servers_model_and_never_mixes_vectors(server, tmp_path: Path) -> None:
    reference = HashEmbedder()

    def reply(handler: BaseHTTPRequestHandler, body: dict) -> None:
        vectors = reference.embed(body["input"])
        _json(handler, 200, {"data": [{"index": i, "embedding": v.tolist()} for i, v in enumerate(vectors)]})

    server.reply = reply
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "birds.md").write_text("# Birds\n\nPenguins cannot fly but swim very well.\n", encoding="utf-8")
    models = ModelsConfig(
        embedder="http", embedder_url=_url(server), embedder_model="tiny-embed", reranker="none"
    )
    with Engine.open(tmp_path / "lib", Config(models=models)) as engine:
        engine.ingest([docs])
        assert engine.library.stored_embedder() == "http:tiny-embed"
        best = engine.retrieve("penguins swim").candidates[0]
        assert "Penguins cannot fly" in best.unit.passage and "vector" in best.scores  # found by its vector
    with Engine.open(tmp_path / "lib", Config(models=ModelsConfig(reranker="none"))) as engine:
        assert engine.needs_reembed()  # the packaged embedder would mix vectors: re-embedding is offered


def test_a_servers_state_says_whether_it_answers_and_serves_the_model(server) -> None:
    assert endpoint_state(Endpoint(_url(server), "tiny-model")) == (True, "reachable, serves tiny-model")
    usable, words = endpoint_state(Endpoint(_url(server), "other"))
    assert not usable and "does not serve 'other'; it serves tiny-model" in words
    gone = ThreadingHTTPServer(("127.0.0.1", 0), _Scripted)
    port = gone.server_port
    gone.server_close()
    usable, words = endpoint_state(Endpoint(f"http://127.0.0.1:{port}", "m"))
    assert not usable and "connection refused" in words
    registry = ModelRegistry(
        ModelsConfig(generator="http", generator_url=_url(server), generator_model="tiny-model"),
        Path("/nonexistent"),
    )
    info = {m.slot: m for m in registry.describe(verify=False)}["generator"]
    assert (info.source, info.path, info.verified) == ("server", _url(server), True)


def test_a_generator_server_that_is_down_is_reported_when_models_load(tmp_path: Path) -> None:
    gone = ThreadingHTTPServer(("127.0.0.1", 0), _Scripted)
    port = gone.server_port
    gone.server_close()
    models = ModelsConfig(generator="http", generator_url=f"http://127.0.0.1:{port}", generator_model="m")
    with (
        Engine.open(tmp_path / "lib", Config(models=models), embedder=HashEmbedder()) as engine,
        pytest.raises(GeneratorError, match="connection refused"),
    ):
        engine.load_generator()
    gguf_on_server = ModelsConfig(
        generator="http", generator_url=f"http://127.0.0.1:{port}", generator_model="m", reranker="gguf"
    )
    with (
        Engine.open(tmp_path / "lib", Config(models=gguf_on_server), embedder=HashEmbedder()) as engine,
        pytest.raises(Exception, match="not a local file"),
    ):
        engine.retrieve("q")


def test_the_models_verb_reports_a_servers_state(server, tmp_path: Path, capsys) -> None:
    from citedesk_engine.cli import main

    library = tmp_path / "lib"
    library.mkdir()
    models = ModelsConfig(generator="http", generator_url=_url(server), generator_model="tiny-model")
    save_config(library / "config.toml", Config(models=models))
    code = main(["models", "--library", str(library), "--json", "--no-verify"])
    slots = {m["slot"]: m for m in json.loads(capsys.readouterr().out)["models"]}
    assert code == 0
    assert (
        slots["generator"]["source"] == "server"
        and slots["generator"]["detail"] == "reachable, serves tiny-model"
    )
    server.shutdown()
    server.server_close()
    code = main(["models", "--library", str(library), "--json", "--no-verify"])
    slots = {m["slot"]: m for m in json.loads(capsys.readouterr().out)["models"]}
    assert (
        code == 1
        and not slots["generator"]["verified"]
        and "connection refused" in slots["generator"]["detail"]
    )
