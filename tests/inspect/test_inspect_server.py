"""The ASGI app without a browser: pages, host and origin checks, the websocket protocol."""

from __future__ import annotations

import json
import re
import shutil
import time
from collections.abc import Callable, Iterator
from importlib.util import find_spec
from typing import TYPE_CHECKING, Any

import pytest
from inspect_samples import Lamp, soldier

from statetree.inspect import Hub

if TYPE_CHECKING:
    from starlette.testclient import TestClient

pytestmark = pytest.mark.skipif(
    find_spec("starlette") is None or find_spec("httpx2") is None,
    reason="the inspect extra (Starlette) or httpx2 for its test client is not installed",
)

ORIGIN = {"origin": "http://testserver"}
SCRIPT = "text/javascript; charset=utf-8"


def json_reason(text: str) -> str:
    """What Python's JSON parser says of ``text`` (the server passes its words on)."""
    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        return str(error)
    raise AssertionError(f"{text!r} is JSON")


needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="needs Graphviz's dot")


@pytest.fixture
def world() -> tuple[Lamp, Any, Hub]:
    lamp, machine = Lamp(), soldier()
    return lamp, machine, Hub([lamp.machine, machine])


@pytest.fixture
def client(world: tuple[Lamp, Any, Hub]) -> Iterator[TestClient]:
    from starlette.testclient import TestClient

    from statetree.inspect.server import create_app

    with TestClient(create_app(world[2], ["testserver"], rate=50)) as client:
        yield client


def receive(
    socket: Any, kind: str, where: Callable[[dict[str, Any]], bool] = lambda message: True
) -> dict[str, Any]:
    """The next message of type ``kind`` for which ``where`` holds, skipping others."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        message: dict[str, Any] = socket.receive_json()
        if message["type"] == kind and where(message):
            return message
    raise AssertionError(f"no such {kind!r} message within 5 s")


def test_the_page_and_its_assets_are_served_with_a_strict_policy(client: TestClient) -> None:
    page = client.get("/")

    assert page.status_code == 200
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    assert '<script type="module" src="/static/inspector.js"></script>' in page.text
    policy = page.headers["content-security-policy"]
    assert "script-src 'self'" in policy
    assert "connect-src ws://testserver;" in policy
    assert page.headers["x-content-type-options"] == "nosniff"
    assert client.get("/static/inspector.js").headers["content-type"] == (
        "text/javascript; charset=utf-8"
    )
    assert client.get("/static/inspector.css").status_code == 200
    # Every module the page imports is served, from the package, with a script type.
    imports = re.findall(r'from "\./([a-z-]+\.js)"', client.get("/static/inspector.js").text)
    for name in imports:
        module = client.get(f"/static/{name}")
        assert (module.status_code, module.headers["content-type"]) == (
            200,
            "text/javascript; charset=utf-8",
        )
    assert client.get("/static/..%2f__init__.py").status_code == 404
    assert client.get("/static/serve.py").status_code == 404


def test_requests_for_another_host_are_refused(client: TestClient) -> None:
    response = client.get("/", headers={"host": "evil.example:8765"})

    assert response.status_code == 400
    assert response.text == (
        "unknown host 'evil.example:8765': this inspector answers to testserver"
    )


@pytest.mark.parametrize(
    "headers",
    [{}, {"origin": "http://evil.example"}, {"origin": "http://testserver", "host": "evil"}],
    ids=["no origin", "foreign origin", "foreign host"],
)
def test_websockets_from_other_origins_are_refused(
    client: TestClient, headers: dict[str, str]
) -> None:
    from starlette.websockets import WebSocketDisconnect

    with (
        pytest.raises(WebSocketDisconnect) as caught,
        client.websocket_connect("/ws", headers=headers),
    ):
        pass
    assert caught.value.code == 1008


def test_hello_lists_the_machines(client: TestClient) -> None:
    with client.websocket_connect("/ws", headers=ORIGIN) as socket:
        hello = socket.receive_json()

    program = hello.pop("program")
    assert isinstance(program, str) and len(program) == 16
    assert hello == {
        "type": "hello",
        "protocol": 2,
        "machines": [
            {"id": "Lamp", "name": "Lamp", "kind": "state-machine", "caps": []},
            {"id": "Soldier", "name": "Soldier", "kind": "bitmask", "caps": ["explain", "packets"]},
        ],
        "rate": 50,
        "frame": 0,
        "paused": False,
        "driven": False,
        "lost": 0,
        "hit": None,
    }


def on(batch: dict[str, Any]) -> bool:
    return "LampStates.On" in batch["active"].get("Lamp", {}).get("states", [])


@needs_dot
def test_subscribing_sends_the_diagram_then_live_states(
    client: TestClient, world: tuple[Lamp, Any, Hub]
) -> None:
    lamp = world[0]
    with client.websocket_connect("/ws", headers=ORIGIN) as socket:
        receive(socket, "hello")
        socket.send_json({"type": "subscribe", "machines": ["Lamp"], "ref": 1})
        view = receive(socket, "view")
        assert receive(socket, "subscribed") == {
            "type": "subscribed",
            "machines": ["Lamp"],
            "ref": 1,
        }
        lamp.on = True
        lamp.tick()
        # The sender may flush in the middle of the tick: gather batches until On shows.
        records: list[list[Any]] = []
        batch = receive(socket, "batch", lambda m: not records.extend(m["records"]) and on(m))

    assert view["machine"] == "Lamp"
    assert view["view"] == "diagram"
    assert view["states"] == [
        "LampStates.Power",
        "LampStates.Broken",
        "LampStates.Off",
        "LampStates.On",
    ]
    assert "<title>LampStates.On</title>" in view["svg"]
    assert view["colors"] == {"fill": "#1f6feb", "text": "#ffffff", "line": "#0b3d91"}
    assert batch["active"] == {
        "Lamp": {
            "states": ["LampStates.Power", "LampStates.On"],
            "links": [],
            "order": ["LampStates.Power", "LampStates.On"],
        }
    }
    assert [row[4:6] for row in records] == [
        ["Init", "LampStates.Power"],
        ["Entry", "LampStates.Off"],
        ["Pop", "LampStates.Off"],
        ["Sibling", "LampStates.On"],
    ]


def test_bitmask_flags_explain_and_packets(
    client: TestClient, world: tuple[Lamp, Any, Hub]
) -> None:
    machine, hub = world[1], world[2]
    with client.websocket_connect("/ws", headers=ORIGIN) as socket:
        receive(socket, "hello")
        socket.send_json({"type": "subscribe", "machines": ["Soldier"]})
        view = receive(socket, "view")
        machine.try_activate("Alive")
        hub.packet(machine, machine.encode())
        batch = receive(socket, "batch", lambda message: "Soldier" in message["packets"])
        socket.send_json({"type": "explain", "machine": "Soldier", "state": "Firing", "ref": 4})
        explained = receive(socket, "explained")

    assert view["view"] == "flags"
    assert view["flags"][2] == {
        "name": "Firing",
        "requires": ["Alive", "Armed"],
        "terminates": [],
        "blocked_by": ["Stunned"],
        "tags": [],
    }
    assert batch["active"] == {"Soldier": {"states": ["Alive"], "links": [], "order": ["Alive"]}}
    assert batch["packets"]["Soldier"]["hex"] == "01"
    assert batch["packets"]["Soldier"]["summary"] == "active: Alive"
    assert explained == {
        "type": "explained",
        "machine": "Soldier",
        "state": "Firing",
        "possible": False,
        "text": "Firing cannot activate: it requires Armed, not active.",
        "reasons": ["it requires Armed, not active"],
        "ref": 4,
    }


@pytest.mark.parametrize(
    ("sent", "reply"),
    [
        (
            "{oops",
            {
                "type": "error",
                "message": f"message is not JSON: {json_reason('{oops')}",
            },
        ),
        (
            '{"type": "exec", "code": "import os"}',
            {
                "type": "error",
                "message": "unknown message type 'exec'; expected one of: subscribe, "
                "unsubscribe, pause, step, explain, chart-source, edit-chart, check-chart, "
                "send-event, set-breakpoint, travel",
            },
        ),
        (
            '{"type": "subscribe", "machines": ["Ghost"], "ref": 9}',
            {
                "type": "error",
                "message": "no machine with id 'Ghost' is inspected",
                "request": "subscribe",
                "ref": 9,
            },
        ),
        (
            '{"type": "explain", "machine": "Lamp", "state": "On"}',
            {
                "type": "error",
                "message": "machine 'Lamp' cannot explain its states",
                "request": "explain",
            },
        ),
        (
            '{"type": "explain", "machine": "Soldier", "state": "Flying"}',
            {
                "type": "error",
                "message": "'Flying' is not a state of definition 'soldier' (states: Alive, "
                "Armed, Firing, Stunned); did you mean 'Firing'?",
                "request": "explain",
            },
        ),
        (
            '{"type": "step", "frames": 1}',
            {
                "type": "error",
                "message": "this program cannot be stepped: its loop does not call "
                "Inspector.frame() before each frame",
                "request": "step",
            },
        ),
        (
            '{"type": "chart-source", "machine": "Lamp"}',
            {
                "type": "error",
                "message": "machine 'Lamp' was not loaded from a file it can edit",
                "request": "chart-source",
            },
        ),
    ],
    ids=[
        "not json",
        "unknown command",
        "unknown machine",
        "no explain",
        "no state",
        "not driven",
        "no chart",
    ],
)
def test_bad_messages_get_an_error_back(
    client: TestClient, sent: str, reply: dict[str, Any]
) -> None:
    with client.websocket_connect("/ws", headers=ORIGIN) as socket:
        receive(socket, "hello")
        socket.send_text(sent)
        assert receive(socket, "error") == reply
        socket.send_bytes(b"\x00")
        assert receive(socket, "error") == {
            "type": "error",
            "message": "send JSON text messages, not binary ones",
        }


def test_pausing_is_reported_in_the_batches(
    client: TestClient, world: tuple[Lamp, Any, Hub]
) -> None:
    hub = world[2]
    hub.frame()
    with client.websocket_connect("/ws", headers=ORIGIN) as socket:
        assert receive(socket, "hello")["driven"] is True
        socket.send_json({"type": "pause", "paused": True})
        assert receive(socket, "paused") == {"type": "paused", "paused": True}
        assert not hub.frame()
        socket.send_json({"type": "step", "frames": 1})
        assert receive(socket, "stepped") == {"type": "stepped", "frames": 1}
        assert hub.frame()
        batch = receive(socket, "batch", lambda message: message["frame"] == 2)

    assert (batch["frame"], batch["paused"], batch["driven"]) == (2, True, True)


def test_closing_the_page_removes_the_listeners(
    client: TestClient, world: tuple[Lamp, Any, Hub]
) -> None:
    lamp, hub = world[0], world[2]
    with client.websocket_connect("/ws", headers=ORIGIN) as socket:
        receive(socket, "hello")
        socket.send_json({"type": "subscribe", "machines": ["Lamp"]})
        receive(socket, "subscribed")
        assert len(lamp.machine._listeners()) == 1
    deadline = time.monotonic() + 5
    while hub.watched("Lamp") and time.monotonic() < deadline:
        time.sleep(0.01)

    assert lamp.machine._listeners() == ()


@needs_dot
def test_a_view_is_sent_once_even_while_batches_flow(
    client: TestClient, world: tuple[Lamp, Any, Hub]
) -> None:
    # Found as the cause of a flaky browser test: the subscribe reply and the next batch
    # both found the view missing and both sent it, so the page drew the card (and its
    # chart editor) twice, dropping what a user had begun to type.
    lamp = world[0]
    with client.websocket_connect("/ws", headers=ORIGIN) as socket:
        receive(socket, "hello")
        for round_ in range(15):
            lamp.on = not lamp.on
            lamp.tick()
            socket.send_json({"type": "subscribe", "machines": ["Lamp"], "ref": round_})
            views = 0
            while True:
                message = socket.receive_json()
                views += message["type"] == "view"
                if message["type"] == "batch" and "Lamp" in message["active"]:
                    break
            socket.send_json({"type": "unsubscribe", "machines": ["Lamp"]})
            receive(socket, "subscribed")
            assert views == 1
