"""Every message of the editor and the debugger through the ASGI app, with its errors:
a page's mistake gets the reason back and changes nothing."""

from __future__ import annotations

import errno
import json
import os
import shutil
from collections.abc import Iterator
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser_support import Loop
from inspect_samples import Lamp
from inspector_demo import CHART, platformer
from test_inspect_server import ORIGIN, needs_dot, receive

from statetree.inspect import EditableChartAdapter, Hub

if TYPE_CHECKING:
    from starlette.testclient import TestClient

pytestmark = pytest.mark.skipif(
    find_spec("starlette") is None or find_spec("httpx2") is None,
    reason="the inspect extra (Starlette) or httpx2 for its test client is not installed",
)
pytest.importorskip("ruamel.yaml", reason="YAML charts need the chart extra")


class World:
    def __init__(self, path: Path) -> None:
        self.lamp = Lamp()
        self.chart: EditableChartAdapter = platformer(path)
        self.hub = Hub([self.lamp.machine, self.chart])

    def tick(self) -> None:
        self.lamp.tick()
        self.chart.chart_machine.tick(0.01)


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    path = tmp_path / "platformer.yaml"
    shutil.copyfile(CHART, path)
    world = World(path)
    loop = Loop(world.hub, world.tick)  # type: ignore[arg-type]
    yield world
    loop.stop()


@pytest.fixture
def socket(world: World) -> Iterator[Any]:
    from starlette.testclient import TestClient

    from statetree.inspect.server import create_app

    client: TestClient
    with (
        TestClient(create_app(world.hub, ["testserver"], rate=50)) as client,
        client.websocket_connect("/ws", headers=ORIGIN) as socket,
    ):
        receive(socket, "hello")
        socket.send_json({"type": "subscribe", "machines": ["Lamp", "Platformer"]})
        receive(socket, "subscribed")
        yield socket


def ask(socket: Any, message: dict[str, Any], reply: str) -> dict[str, Any]:
    socket.send_json({**message, "ref": 77})
    found = receive(socket, reply, lambda m: m.get("ref") == 77)
    del found["ref"]
    return found


def refused(socket: Any, message: dict[str, Any]) -> str:
    error = ask(socket, message, "error")
    assert error["request"] == message["type"]
    return str(error["message"])


STANDING_PRE = {"op": "set-conditions", "path": "Hero.Legs.Standing", "kind": "pre"}


def test_an_edit_is_checked_without_being_saved(socket: Any, world: World) -> None:
    before = world.chart.file.read()
    edit = {"type": "check-chart", "machine": "Platformer"}
    good = ask(socket, {**edit, "edit": {**STANDING_PRE, "conditions": None}}, "chart-checked")
    bad = ask(
        socket, {**edit, "edit": {**STANDING_PRE, "conditions": {"input": "Sit"}}}, "chart-checked"
    )

    assert good == {"type": "chart-checked", "machine": "Platformer", "ok": True, "problems": []}
    assert bad == {
        "type": "chart-checked",
        "machine": "Platformer",
        "ok": False,
        "problems": [
            {
                "message": "priority state Hero.Legs has no ground state: its last child "
                "Standing has a pre-condition; add a last child without one, chosen when no "
                "other is",
                "path": "root.states[0].states[2].pre",
                "line": 28,
                "file": str(world.chart.file.path),
            }
        ],
    }
    assert world.chart.file.read() == before


def test_a_refused_edit_carries_the_loaders_problems(socket: Any, world: World) -> None:
    before = world.chart.file.read()
    message = {
        "type": "edit-chart",
        "machine": "Platformer",
        "edit": {**STANDING_PRE, "conditions": {"input": "Sit"}},
    }
    error = ask(socket, message, "error")

    assert error["problems"][0]["line"] == 28
    assert error["message"].endswith(
        "platformer.yaml:28 at root.states[0].states[2].pre: priority state Hero.Legs has no "
        "ground state: its last child Standing has a pre-condition; add a last child without "
        "one, chosen when no other is"
    )
    assert world.chart.file.read() == before


@pytest.mark.parametrize(
    ("damage", "problem"),
    [
        (b"# caf\xe9\n", ":1: not UTF-8 text: byte 0xe9 at column 6; save the file as UTF-8"),
        (None, f": cannot read: {os.strerror(errno.ENOENT)}"),
        pytest.param(
            "pipe",
            ": cannot read: not a regular file",
            marks=pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="pipes are POSIX"),
        ),
    ],
)
def test_a_file_that_cannot_be_read_gets_the_loaders_error(
    socket: Any, world: World, damage: bytes | str | None, problem: str
) -> None:
    path, machine = world.chart.file.path, world.chart.chart_machine
    chart, active = machine.chart, machine.active
    if damage is None:
        path.unlink()  # the file vanished (a save by renaming, half done)
    elif damage == "pipe":  # reading it would wait for a writer forever
        path.unlink()
        os.mkfifo(path)
    else:
        assert isinstance(damage, bytes)
        path.write_bytes(damage + path.read_bytes())

    source = {"type": "chart-source", "machine": "Platformer"}
    assert refused(socket, source) == f"{path}{problem}"
    checked = ask(
        socket,
        {"type": "check-chart", "machine": "Platformer", "edit": STANDING_PRE},
        "chart-checked",
    )
    assert checked["ok"] is False
    assert checked["problems"][0]["message"] == problem.split(": ", 1)[1]
    edit = {"type": "edit-chart", "machine": "Platformer", "edit": STANDING_PRE}
    assert refused(socket, edit) == f"{path}{problem}"
    assert machine.chart is chart and machine.active == active
    assert path.exists() == (damage is not None)


def test_edits_are_undone_and_redone(socket: Any, world: World) -> None:
    before = world.chart.file.read()
    rename = {"op": "rename-state", "path": "Hero.Arms.Aiming", "name": "Aim"}
    edited = ask(
        socket, {"type": "edit-chart", "machine": "Platformer", "edit": rename}, "chart-edited"
    )
    assert (edited["step"], edited["history"]) == ("edit", {"undo": 1, "redo": 0})

    undo = {"type": "edit-chart", "machine": "Platformer", "edit": {"op": "undo"}}
    undone = ask(socket, undo, "chart-edited")
    assert (undone["step"], undone["history"]) == ("undo", {"undo": 0, "redo": 1})
    assert world.chart.file.read() == before
    assert refused(socket, undo) == "nothing to undo"

    redo = {"type": "edit-chart", "machine": "Platformer", "edit": {"op": "redo"}}
    assert ask(socket, redo, "chart-edited")["step"] == "redo"
    assert world.chart.chart_machine.chart.find("Hero.Arms.Aim") is not None


def test_edits_sent_without_waiting_are_made_in_order(socket: Any, world: World) -> None:
    # Each is checked on the file the one before left: the second renames what the first
    # named, and the undo takes back the second (a structured edit is slower to check than
    # an undo, which once overtook it).
    edits = [
        {"op": "rename-state", "path": "Hero.Arms.Aiming", "name": "Aim"},
        {"op": "rename-state", "path": "Hero.Arms.Aim", "name": "Aim2"},
        {"op": "undo"},
    ]
    for ref, edit in enumerate(edits, 1):
        socket.send_json({"type": "edit-chart", "machine": "Platformer", "edit": edit, "ref": ref})
    replies = [receive(socket, "chart-edited", lambda m: "ref" in m) for _ in edits]
    assert [(reply["ref"], reply["step"]) for reply in replies] == [
        (1, "edit"),
        (2, "edit"),
        (3, "undo"),
    ]
    assert replies[-1]["history"] == {"undo": 1, "redo": 1}
    chart = world.chart.chart_machine.chart
    assert chart.find("Hero.Arms.Aim") is not None
    assert chart.find("Hero.Arms.Aim2") is None and chart.find("Hero.Arms.Aiming") is None


def test_an_undo_after_the_file_changed_elsewhere_is_refused(socket: Any, world: World) -> None:
    rename = {"op": "rename-state", "path": "Hero.Arms.Aiming", "name": "Aim"}
    ask(socket, {"type": "edit-chart", "machine": "Platformer", "edit": rename}, "chart-edited")
    changed = world.chart.file.read().replace("# A platformer", "# Someone's platformer")
    world.chart.file.save(changed)

    undo = {"type": "edit-chart", "machine": "Platformer", "edit": {"op": "undo"}}
    assert refused(socket, undo) == (
        "the chart file changed since the last edit made here: nothing to undo"
    )
    assert world.chart.file.read() == changed


def test_events_are_sent_to_a_chart(socket: Any, world: World) -> None:
    event = {"type": "send-event", "machine": "Platformer", "trigger": "input", "name": "Attack"}

    assert ask(socket, {**event, "mode": "send"}, "event-sent") == {
        "type": "event-sent",
        "machine": "Platformer",
        "trigger": "input",
        "name": "Attack",
        "mode": "send",
    }
    assert "Hero.Arms.Slashing" in world.chart.chart_machine.active
    assert refused(socket, {**event, "mode": "hold"}) == (
        "input Attack is not a level trigger: send() it instead"
    )
    assert refused(socket, {**event, "trigger": "shout", "mode": "send"}) == (
        "chart 'Platformer' has no trigger type 'shout'; its types: input, anim_finished, "
        "timer, event, held, landed"
    )
    assert refused(socket, {**event, "machine": "Lamp", "mode": "send"}) == (
        "machine 'Lamp' takes no events from the page"
    )


def test_breakpoints_are_set_and_sent_to_every_page(socket: Any, world: World) -> None:
    message = {"type": "set-breakpoint", "machine": "Lamp", "on": "enter", "set": True}
    reply = ask(socket, {**message, "target": "LampStates.On"}, "breakpoints")

    assert reply == {
        "type": "breakpoints",
        "machine": "Lamp",
        "breakpoints": [["enter", "LampStates.On"]],
    }
    batch = receive(socket, "batch", lambda m: "Lamp" in m.get("breaks", {}))
    assert batch["breaks"]["Lamp"] == [["enter", "LampStates.On"]]
    assert refused(socket, {**message, "target": "LampStates.Dim"}) == (
        "machine 'Lamp' has no state 'LampStates.Dim'"
    )
    assert world.hub.breakpoints("Lamp") == [("enter", "LampStates.On")]


def test_time_travel_to_a_row(socket: Any, world: World) -> None:
    world.lamp.on = True
    rows: list[list[Any]] = []
    receive(
        socket,
        "batch",
        lambda m: not rows.extend(m["records"]) and any(r[5] == "LampStates.On" for r in rows),
    )
    entered = next(row for row in rows if row[5] == "LampStates.On")
    message = {"type": "travel", "machine": "Lamp", "seq": entered[0]}
    travelled = ask(socket, message, "travelled")
    while travelled["pending"]:  # the values of a frame are read when the next one begins
        assert travelled["values"] is None
        travelled = ask(socket, message, "travelled")

    assert travelled["seq"] == entered[0]
    assert travelled["frame"] == entered[1]
    assert travelled["highlight"] == {
        "states": ["LampStates.Power", "LampStates.On"],
        "links": [],
        "order": ["LampStates.Power", "LampStates.On"],
    }
    assert travelled["values"][0] == ["state values", "brightness", "1.0"]
    assert refused(socket, {"type": "travel", "machine": "Lamp", "seq": 10**9}).startswith(
        f"step #{10**9} of this machine is not in its history"
    )


@needs_dot
def test_a_charts_view_has_its_palette_and_regions(world: World) -> None:
    from statetree.inspect.views import Views

    view = Views(world.hub).view_message("Platformer")

    assert view["palette"][:3] == [
        {"type": "input", "name": "Jump", "level": False},
        {"type": "input", "name": "Attack", "level": False},
        {"type": "anim_finished", "name": "Slash", "level": False},
    ]
    assert {"type": "held", "name": "Right", "level": True} in view["palette"]
    assert [(r["host"], r["root"], len(r["members"])) for r in view["regions"]] == [
        ("Hero", "Hero.Legs", 4),
        ("Hero", "Hero.Arms", 5),
    ]


@pytest.mark.parametrize(
    ("message", "command", "reason"),
    [
        ({"type": "step", "frames": 0}, "step", "field 'frames' must be an integer from 1 to 1000"),
        ({"type": "pause"}, "pause", "'pause' message lacks field(s): paused"),
        ({"type": "travel", "machine": "Lamp", "seq": 1, "x": 1}, "travel", "unexpected field"),
        ({"type": "eval"}, None, "unknown message type 'eval'"),
    ],
)
def test_a_message_that_fails_validation_gets_its_ref_back(
    socket: Any, message: dict[str, Any], command: str | None, reason: str
) -> None:
    socket.send_json({**message, "ref": 41})

    error = receive(socket, "error")

    assert error["ref"] == 41
    assert error.get("request") == command
    assert reason in error["message"]


def test_a_message_with_a_bad_ref_gets_an_error_without_one(socket: Any) -> None:
    socket.send_json({"type": "pause", "paused": True, "ref": -3})

    error = receive(socket, "error")

    assert error == {
        "type": "error",
        "message": "field 'ref' must be a non-negative integer",
        "request": "pause",
    }


@pytest.mark.parametrize(
    ("edit", "extra"),
    [
        ({"op": "rename-state", "path": "Hero.Legs", "name": "L2", "bogus": 1}, "bogus"),
        ({"op": "remove-state", "path": "Hero.Legs.Jumping", "name": "x"}, "name"),
        ({"op": "replace-text", "text": "version: 1\n", "file": "/etc/passwd"}, "file"),
        ({"op": "set-policy", "path": "Hero.Legs", "policy": None, "z": 0, "a": 0}, "a, z"),
        ({"op": "detach-use", "path": "Hero", "with": {}}, "with"),
        ({"op": "undo", "steps": 2}, "steps"),
        ({"op": "redo", "path": "Hero"}, "path"),
    ],
    ids=["rename", "remove", "replace-text", "set-policy", "detach", "undo", "redo"],
)
@pytest.mark.parametrize("kind", ["edit-chart", "check-chart"])
def test_an_edit_with_a_field_its_operation_does_not_take_is_refused(
    socket: Any, world: World, edit: dict[str, Any], extra: str, kind: str
) -> None:
    machine = world.chart.chart_machine
    before, chart = world.chart.file.read(), machine.chart

    message = {"type": kind, "machine": "Platformer", "edit": edit}
    assert refused(socket, message) == f"{edit['op']!r} edit has unexpected field(s): {extra}"
    assert world.chart.file.read() == before and machine.chart is chart


def test_an_oversized_edit_is_refused_with_its_ref_and_changes_nothing(
    socket: Any, world: World
) -> None:
    before = world.chart.file.read()
    text = before + "# " + "x" * 70000 + "\n"
    # As the page sends it: the ref first, then the type, then the fields.
    first = {"ref": 41, "type": "edit-chart", "machine": "Platformer"}
    message = json.dumps({**first, "edit": {"op": "replace-text", "text": text}})
    socket.send_text(message)

    error = receive(socket, "error")

    size = len(message.encode())
    assert error == {
        "type": "error",
        "message": f"message of {size} bytes refused: the limit is 65536",
        "request": "edit-chart",
        "ref": 41,
    }
    assert world.chart.file.read() == before


def test_a_text_with_old_mac_line_ends_is_saved_with_the_files_own(
    socket: Any, world: World
) -> None:
    before = world.chart.file.read()
    retyped = before.replace("# A platformer", "# A retyped platformer")
    replace = {"op": "replace-text", "text": retyped.replace("\n", "\r")}
    ask(socket, {"type": "edit-chart", "machine": "Platformer", "edit": replace}, "chart-edited")
    assert world.chart.file.path.read_bytes() == retyped.encode()

    # Every structured edit works on it as on any other.
    rename = {"op": "rename-state", "path": "Hero.Legs", "name": "Lower"}
    edited = ask(
        socket, {"type": "edit-chart", "machine": "Platformer", "edit": rename}, "chart-edited"
    )
    assert edited["history"] == {"undo": 2, "redo": 0}
    assert world.chart.chart_machine.chart.find("Hero.Lower") is not None
    assert "\r" not in world.chart.file.read()
