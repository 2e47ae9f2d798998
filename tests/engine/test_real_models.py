"""Integration on the real embedded models: ingest, vectors that mean something, no network at all."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import factories
import numpy as np
import pytest
from citedesk_engine import Engine, FileStatus

pytestmark = pytest.mark.models


@pytest.fixture(scope="module")
def real_engine(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("real")
    engine = Engine.open(root / "library")
    yield engine, root
    engine.close()


def test_ingest_with_the_packaged_embedder(real_engine) -> None:
    engine, root = real_engine
    docs = root / "docs"
    factories.mixed_folder(docs)
    factories.pdf(
        docs / "animals.pdf",
        [
            "Penguins live in the southern hemisphere and cannot fly.",
            "The photosynthesis of plants turns sunlight into chemical energy.",
            "Interest rates were raised by the central bank to fight inflation.",
        ],
    )
    report = engine.ingest([docs])
    assert all(f.status is FileStatus.INGESTED for f in report.files), [f.reason for f in report.files]
    embedder = engine.embedder()
    assert embedder.name == "all-MiniLM-L6-v2" and embedder.dimension == 384
    query = embedder.embed(["Which birds are unable to fly?"])[0]
    assert abs(float(np.linalg.norm(query)) - 1.0) < 1e-4
    (best_id, _, distance), *_ = engine.library.vectors.search(query, 3)
    best = next(u for u in engine.units(str(docs / "animals.pdf")) if u.unit_id == best_id)
    assert "Penguins" in best.passage and best.page == 1 and distance < 0.7
    money = engine.library.vectors.search(embedder.embed(["monetary policy"])[0], 1)[0][0]
    assert next(u for u in engine.units(str(docs / "animals.pdf")) if u.unit_id == money).page == 3


NO_NETWORK = textwrap.dedent(
    """
    import socket, sys, json
    def refuse(*args, **kwargs):
        raise OSError("network access attempted: " + repr(args[:2]))
    socket.socket.connect = refuse
    socket.socket.connect_ex = refuse
    socket.socket.sendto = refuse
    socket.create_connection = refuse
    socket.getaddrinfo = refuse

    from citedesk_engine import Engine
    with Engine.open(sys.argv[1]) as engine:
        report = engine.ingest(sys.argv[2:])
        generator = engine.registry.generator_path()
    import llama_cpp
    model = llama_cpp.Llama(model_path=str(generator), n_ctx=256, n_threads=1, verbose=False)
    tokens = model.tokenize(b"offline")
    print(json.dumps({"statuses": [f.status.value for f in report.files], "tokens": len(tokens)}))
    """
)


def test_ingest_and_model_load_with_sockets_disabled(tmp_path: Path) -> None:
    docs = factories.mixed_folder(tmp_path / "docs")
    env_cache = tmp_path / "fresh-cache"  # assemble the GGUF from scratch, offline
    result = subprocess.run(
        [sys.executable, "-c", NO_NETWORK, str(tmp_path / "lib"), *map(str, docs.values())],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "CITEDESK_CACHE_DIR": str(env_cache)},
    )
    assert result.returncode == 0, result.stderr[-3000:]
    payload = json.loads(result.stdout.strip().splitlines()[-1])
    assert payload["statuses"] == ["ingested"] * len(docs) and payload["tokens"] > 0
    assert "network access attempted" not in result.stderr
