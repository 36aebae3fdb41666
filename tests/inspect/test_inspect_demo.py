"""The inspector demo runs headless, serves its world and stops by itself; its Hero is
replicated and its chart's events reach the timeline."""

from __future__ import annotations

import inspect
import socket
from importlib.util import find_spec
from pathlib import Path

import inspector_demo
import pytest

import statetree
from statetree.inspect import Hub, PacketField, ServeError
from statetree.inspect.watcher import Watcher

pytestmark = pytest.mark.skipif(
    find_spec("uvicorn") is None, reason="the inspect extra is not installed"
)


def test_run_headless_serves_then_exits(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the demo edits a copy of its chart under build/

    inspector_demo.run(30, headless=True, npcs=5)

    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("statetree inspector: http://127.0.0.1:")
    assert lines[1] == "ran 30 frames of 17 machines; Hero: Alive > Jump > Jump_Rise"
    assert (tmp_path / "build" / "inspector_demo" / "platformer.yaml").is_file()


def test_a_headless_run_serves_on_the_port_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = int(taken.getsockname()[1])
        with pytest.raises(ServeError, match=f"cannot listen on 127.0.0.1:{port}"):
            inspector_demo.run(3, headless=True, port=port, npcs=1)


class Sent:
    """Stands for the inspector: records each packet the world reports, with its frame."""

    def __init__(self, world: inspector_demo.DemoWorld) -> None:
        self.world = world
        self.packets: list[tuple[int, object, bytes]] = []

    def packet(self, machine: object, data: bytes) -> None:
        self.packets.append((self.world.frame, machine, data))


def test_the_hero_is_replicated_and_each_change_reported(tmp_path: Path) -> None:
    world = inspector_demo.DemoWorld(npcs=0, chart=tmp_path / "platformer.yaml")
    sent = Sent(world)
    world.attach(sent)  # type: ignore[arg-type]

    for _ in range(48):
        world.tick(1 / 30)

    hero = world.hero.adapter
    assert [(frame, data.hex()) for frame, machine, data in sent.packets if machine is hero] == [
        (0, "00"),  # Stand: leaf index 0
        (8, "20"),  # Move_Walk: 1
        (24, "40"),  # Move_Crawl: 2
        (28, "6814000000"),  # Jump_Rise: 3, then its velocity, 5.0 as a Float32
    ]
    packet = hero.decode_packet(bytes.fromhex("6814000000"))
    assert packet.fields == (
        PacketField("leaf index", 0, 3, "leaf 3 of 6: Alive/Jump/Jump_Rise"),
        PacketField("Jump_Rise.velocity: Float32()", 3, 32, "5.0"),
        PacketField("padding", 35, 5, "zero bits up to a whole byte"),
    )
    assert packet.summary == "active: Alive/Jump/Jump_Rise(5.0)"


def test_the_charts_events_are_on_the_timeline(tmp_path: Path) -> None:
    world = inspector_demo.DemoWorld(npcs=0, chart=tmp_path / "platformer.yaml")
    hub = Hub(world.machines())
    hub.watch(Watcher(), ["Platformer"])

    for _ in range(60):
        world.tick(1 / 30)

    events = [(row[4], row[7]) for row in hub.flush() if row[3] == "event"]
    assert events == [
        ("input", "Attack"),
        ("input", "Jump"),
        ("anim_finished", "Slash"),
        ("landed", "Ground"),
    ]


def test_run_has_the_signature_make_demo_calls() -> None:
    parameters = inspect.signature(inspector_demo.run).parameters

    assert list(parameters)[:2] == ["frames", "headless"]


def test_importing_statetree_loads_no_web_server() -> None:
    code = (
        "import sys, statetree, statetree.inspect; "
        "print(sorted(m for m in ('starlette', 'uvicorn', 'websockets') if m in sys.modules))"
    )
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "[]\n"
    assert statetree.inspect.serve.__module__ == "statetree.inspect.serving"


def test_agents_of_the_batch_crowd_are_followed_one_by_one(tmp_path: Path) -> None:
    pytest.importorskip("numpy", reason="the batch crowd needs NumPy (the batch extra)")
    world = inspector_demo.DemoWorld(npcs=0, chart=tmp_path / "platformer.yaml")
    hub = Hub(world.machines())
    agents = [entry for entry in hub.catalog() if entry["kind"] == "chart-agent"]
    assert [entry["name"] for entry in agents] == ["Crowd[0]", "Crowd[1]", "Crowd[2]"]
    hub.watch(Watcher(), [agents[0]["id"]])

    for _ in range(60):
        hub.frame()
        world.tick(1 / 30)
    hub.frame()

    rows = [row for row in hub.flush() if row[2] == agents[0]["id"]]
    assert rows and {row[3] for row in rows} <= {"enter", "exit"}
    active = world.batch.batch.active(0)
    assert hub.latest["active"][agents[0]["id"]] == active
