"""An OpenAI-compatible server a model slot points at: where it is, whether it may be used, and the
HTTP it speaks (JSON requests, server-sent-event streams). Standard library only.

Nothing leaves the machine by surprise: an endpoint on a loopback address is used as it is; any other
host needs `allow_remote = true` in [models] (`check_endpoint`), and the window asks once more.
"""

from __future__ import annotations

import contextlib
import http.client
import ipaddress
import json
import os
import socket
import threading
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass

from ..errors import ConfigError, EngineError

LOOPBACK_NAMES = ("localhost", "localhost.localdomain", "ip6-localhost")


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One server: its base URL (up to, not including, /v1), the model name it serves, and the name of
    the environment variable holding its API key ("" for none; the key is never in config.toml)."""

    url: str
    model: str
    api_key_env: str = ""
    timeout: float = 120.0

    @property
    def host(self) -> str:
        return urllib.parse.urlsplit(self.url).hostname or ""

    def api_key(self) -> str:
        if not self.api_key_env:
            return ""
        key = os.environ.get(self.api_key_env, "")
        if not key:
            raise ConfigError(
                f"[models] api_key_env names the environment variable {self.api_key_env}, which is not "
                "set: set it before starting CiteDesk, or clear api_key_env."
            )
        return key


def is_loopback(url: str) -> bool:
    """True when the URL's host is this machine's loopback interface (127.0.0.0/8, ::1, localhost).
    A name other than localhost is not looked up: it counts as another host."""
    host = (urllib.parse.urlsplit(url).hostname or "").lower()
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_endpoint(slot: str, url: str, allow_remote: bool) -> None:
    """A ConfigError in words when `url` cannot be a server for `slot`: not http(s), no host, or a host
    other than this machine without `allow_remote`."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigError(
            f"[models] {slot}_url must be an http:// or https:// address such as http://127.0.0.1:8080, "
            f"got {url!r}."
        )
    if not allow_remote and not is_loopback(url):
        raise ConfigError(
            f"[models] {slot}_url points at {parts.hostname}, which is not this computer: every question "
            "and the passages found for it would be sent there. Set allow_remote = true in [models] to "
            "allow it, or use a server on 127.0.0.1."
        )


def _connection(endpoint: Endpoint, timeout: float) -> http.client.HTTPConnection:
    parts = urllib.parse.urlsplit(endpoint.url)
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    return kind(parts.hostname or "", parts.port, timeout=timeout)


def base_url(url: str) -> str:
    """The server's address without a trailing /v1 (Ollama's and LM Studio's guides write it)."""
    url = url.strip().rstrip("/")
    return url[: -len("/v1")] if url.endswith("/v1") else url


def _path(endpoint: Endpoint, tail: str) -> str:
    base = urllib.parse.urlsplit(endpoint.url).path.rstrip("/")
    return f"{base}/v1/{tail}"


def _headers(endpoint: Endpoint) -> dict[str, str]:
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    key = endpoint.api_key()
    if key:
        headers["Authorization"] = f"Bearer {key}"
    return headers


def _refusal(endpoint: Endpoint, response: http.client.HTTPResponse) -> str:
    """The server's own words for a failed request, shortened, with what to check."""
    try:
        body = response.read(4000).decode("utf-8", "replace")
        payload = json.loads(body)
        error = payload.get("error", payload) if isinstance(payload, dict) else payload
        message = error.get("message", body) if isinstance(error, dict) else str(error)
    except (OSError, ValueError):
        message = ""
    message = " ".join(str(message).split())[:300]
    hint = {
        401: "check the API key (api_key_env)",
        403: "check the API key (api_key_env)",
        404: f"check that it serves the model {endpoint.model!r} and the OpenAI /v1 routes",
    }.get(response.status, "see the server's log")
    said = f": {message}" if message else ""
    return f"answered {response.status} {response.reason}{said} ({hint})"


def _failure(endpoint: Endpoint, exc: BaseException) -> str:
    if isinstance(exc, ConnectionRefusedError):
        return "cannot be reached (connection refused; is the server running?)"
    if isinstance(exc, (TimeoutError, socket.timeout)):
        return f"did not answer within {endpoint.timeout:.0f} s"
    if isinstance(exc, socket.gaierror):
        return f"cannot be reached: the host name {endpoint.host!r} is unknown"
    if isinstance(exc, (http.client.IncompleteRead, http.client.RemoteDisconnected, ConnectionResetError)):
        return "closed the connection before its answer was complete"
    return f"failed: {exc}"


def post_json(
    endpoint: Endpoint, tail: str, body: dict[str, object], error: type[EngineError]
) -> dict[str, object]:
    """POST `body` to {url}/v1/{tail} and return the JSON object answered; any failure is `error`
    naming the URL."""
    where = endpoint.url + "/v1/" + tail
    connection = _connection(endpoint, endpoint.timeout)
    try:
        data = json.dumps(body).encode("utf-8")
        connection.request("POST", _path(endpoint, tail), data, _headers(endpoint))
        response = connection.getresponse()
        if response.status != 200:
            raise error(f"The server at {where} {_refusal(endpoint, response)}.")
        payload = json.loads(response.read().decode("utf-8"))
    except EngineError:
        raise
    except ValueError as exc:
        raise error(f"The server at {where} sent an answer that is not JSON.") from exc
    except (OSError, http.client.HTTPException) as exc:
        raise error(f"The server at {where} {_failure(endpoint, exc)}.") from exc
    finally:
        connection.close()
    if not isinstance(payload, dict):
        raise error(f"The server at {where} sent JSON that is not an object.")
    return payload


def stream_events(
    endpoint: Endpoint,
    tail: str,
    body: dict[str, object],
    error: type[EngineError],
    cancel: threading.Event | None = None,
) -> Iterator[dict[str, object]]:
    """POST `body` and yield the JSON object of each server-sent event until `data: [DONE]`.

    A stream that ends without [DONE] (the server stopped or crashed), a line that is not JSON, or any
    HTTP failure is `error` naming the URL. Setting `cancel` closes the connection at once, even while
    the server is silent; the iterator then stops (the caller raises Cancelled)."""
    where = endpoint.url + "/v1/" + tail
    connection = _connection(endpoint, endpoint.timeout)
    finished = threading.Event()
    watcher = threading.Thread(target=_close_on_cancel, args=(connection, cancel, finished), daemon=True)
    try:
        try:
            connection.request(
                "POST", _path(endpoint, tail), json.dumps(body).encode("utf-8"), _headers(endpoint)
            )
            response = connection.getresponse()
        except (OSError, http.client.HTTPException) as exc:
            raise error(f"The server at {where} {_failure(endpoint, exc)}.") from exc
        if response.status != 200:
            raise error(f"The server at {where} {_refusal(endpoint, response)}.")
        if cancel is not None:
            watcher.start()
        while True:
            try:
                line = response.readline()
            except (OSError, http.client.HTTPException, ValueError) as exc:
                if cancel is not None and cancel.is_set():
                    return
                raise error(f"The server at {where} {_failure(endpoint, exc)}.") from exc
            if cancel is not None and cancel.is_set():
                return
            if not line:
                raise error(
                    f"The server at {where} stopped before its answer was complete (no end-of-stream "
                    "mark): it may have crashed or been stopped; see its log."
                )
            text = line.decode("utf-8", "replace").strip()
            if not text.startswith("data:"):
                continue  # blank separators, comments (": ping"), event: and id: lines
            data = text[5:].strip()
            if data == "[DONE]":
                return
            try:
                event = json.loads(data)
            except ValueError:
                event = None
            if not isinstance(event, dict):
                raise error(f"The server at {where} sent a line that is no JSON object: {data[:80]!r}")
            if "error" in event:
                detail = event["error"]
                message = detail.get("message", detail) if isinstance(detail, dict) else detail
                raise error(f"The server at {where} stopped with an error: {str(message)[:300]}")
            yield event
    finally:
        finished.set()
        connection.close()


def _close_on_cancel(
    connection: http.client.HTTPConnection, cancel: threading.Event | None, finished: threading.Event
) -> None:
    """Shut the socket down when `cancel` is set, so a read waiting on a silent server returns."""
    assert cancel is not None
    while not finished.is_set():
        if cancel.wait(0.05):
            sock = connection.sock
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
            return


def served_models(endpoint: Endpoint, timeout: float = 3.0) -> tuple[str, ...]:
    """The model names GET {url}/v1/models lists; raises OSError or ValueError when it cannot say."""
    connection = _connection(endpoint, timeout)
    try:
        connection.request("GET", _path(endpoint, "models"), headers=_headers(endpoint))
        response = connection.getresponse()
        if response.status != 200:
            raise OSError(_refusal(endpoint, response))
        payload = json.loads(response.read().decode("utf-8"))
    except http.client.HTTPException as exc:
        raise OSError(str(exc)) from exc
    finally:
        connection.close()
    rows = payload.get("data") if isinstance(payload, dict) else None
    if not isinstance(rows, list):
        raise ValueError("no data[] list")
    return tuple(str(row.get("id")) for row in rows if isinstance(row, dict) and row.get("id"))


def endpoint_state(endpoint: Endpoint) -> tuple[bool, str]:
    """(usable, words) for Settings and `citedesk models`: reachable, and serving the model named."""
    try:
        names = served_models(endpoint)
    except ConfigError as exc:
        return False, str(exc)
    except (OSError, ValueError) as exc:
        return False, f"not reachable: {_failure(endpoint, exc) if isinstance(exc, OSError) else exc}"
    if not endpoint.model:
        return True, f"reachable; serves {', '.join(names) or 'no model'} (set the model name to use)"
    if names and endpoint.model not in names:
        return False, f"reachable, but it does not serve {endpoint.model!r}; it serves {', '.join(names)}"
    return True, f"reachable, serves {endpoint.model}"
