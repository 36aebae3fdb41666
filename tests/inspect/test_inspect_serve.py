"""serve(): a real server in a background thread, on one address only; the command."""

from __future__ import annotations

import errno
import json
import logging
import os
import shutil
import socket
import threading
import urllib.error
import urllib.request
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import inspect_samples
import pytest
from browser_support import wait_until
from inspect_samples import Lamp, LampWorld

from statetree.cli import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, main
from statetree.cli.inspect_command import COMMAND
from statetree.inspect import InspectError, ServeError, serve
from statetree.inspect.simulation import Still, as_simulation

CHARTS = Path(__file__).resolve().parents[2] / "examples" / "charts"
IN_USE = os.strerror(errno.EADDRINUSE)  # the system's words for a taken port

pytestmark = pytest.mark.skipif(
    find_spec("uvicorn") is None or find_spec("websockets") is None,
    reason="the inspect extra (uvicorn, websockets) is not installed",
)


def fetch(url: str, host: str | None = None) -> tuple[int, str]:
    request = urllib.request.Request(url, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def port_of(url: str) -> int:
    return int(url.rstrip("/").rsplit(":", 1)[1])


def refused(host: str, port: int) -> bool:
    try:
        socket.create_connection((host, port), timeout=2).close()
    except OSError:
        return True
    return False


def test_serve_runs_in_the_background_until_stopped() -> None:
    lamp = Lamp()
    inspector = serve([lamp.machine], port=0)
    port = port_of(inspector.url)
    try:
        assert inspector.url == f"http://127.0.0.1:{port}/"
        status, text = fetch(inspector.url)
        assert status == 200
        assert "<title>statetree inspector</title>" in text
        assert fetch(inspector.url, host=f"localhost:{port}")[0] == 200
        assert fetch(inspector.url, host=f"attacker.example:{port}")[0] == 400
        lamp.tick()  # the program keeps its own thread
    finally:
        inspector.stop()

    assert refused("127.0.0.1", port)


def test_it_listens_on_the_address_it_is_given_only() -> None:
    with serve([], port=0) as inspector:
        port = port_of(inspector.url)
        assert not refused("127.0.0.1", port)
        assert refused("127.0.0.2", port)
        assert refused("::1", port)


def test_an_explicit_loopback_address() -> None:
    with serve([], host="127.0.0.2", port=0) as inspector:
        port = port_of(inspector.url)
        assert inspector.url == f"http://127.0.0.2:{port}/"
        assert refused("127.0.0.1", port)
        assert fetch(inspector.url)[0] == 200


@pytest.mark.parametrize(
    ("host", "message"),
    [
        (
            "0.0.0.0",
            "host '0.0.0.0' would listen on every network interface; the inspector serves one "
            "address: give it, e.g. 127.0.0.1 or this computer's LAN address",
        ),
        (
            "::",
            "host '::' would listen on every network interface; the inspector serves one "
            "address: give it, e.g. 127.0.0.1 or this computer's LAN address",
        ),
        (
            "example.com",
            "host 'example.com' is not an IP address; give the address to serve on, such as "
            "127.0.0.1 (the default, this computer only)",
        ),
    ],
)
def test_addresses_that_are_not_one_ip_are_refused(host: str, message: str) -> None:
    with pytest.raises(InspectError) as caught:
        serve([], host=host, port=0)
    assert str(caught.value) == message


def test_a_taken_port_is_a_clear_error() -> None:
    with serve([], port=0) as inspector:
        port = port_of(inspector.url)
        with pytest.raises(ServeError) as caught:
            serve([], port=port)
    assert str(caught.value) == f"cannot listen on 127.0.0.1:{port}: {IN_USE}"


def test_the_rate_is_bounded() -> None:
    with pytest.raises(InspectError) as caught:
        serve([], port=0, rate=1000)
    assert str(caught.value) == "rate must be from 0.5 to 120 updates per second, got 1000"


def test_websockets_check_the_origin() -> None:
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    with serve([Lamp().machine], port=0) as inspector:
        address = inspector.url.replace("http://", "ws://") + "ws"
        with pytest.raises(InvalidStatus) as caught:
            connect(address, origin="http://attacker.example", open_timeout=5)
        assert caught.value.response.status_code == 403
        with connect(address, origin=inspector.url.rstrip("/"), open_timeout=5) as client:
            hello = client.recv(timeout=5)
    assert '"type": "hello"' in str(hello) or '"type":"hello"' in str(hello)


def test_a_message_over_the_limit_is_answered_and_the_page_stays_connected() -> None:
    from websockets.sync.client import connect

    with serve([Lamp().machine], port=0) as inspector:
        address = inspector.url.replace("http://", "ws://") + "ws"
        with connect(address, origin=inspector.url.rstrip("/"), open_timeout=5) as client:
            client.recv(timeout=5)
            big = json.dumps({"type": "subscribe", "machines": ["x" * 60] * 2000})
            client.send(big)
            reply = json.loads(client.recv(timeout=5))
            assert (reply["type"], reply["message"]) == (
                "error",
                f"message of {len(big)} bytes refused: the limit is 65536",
            )
            client.send('{"type": "subscribe", "machines": ["Lamp"]}')
            while json.loads(client.recv(timeout=5))["type"] != "subscribed":
                pass


def test_stop_removes_the_listeners_of_watched_machines() -> None:
    from websockets.sync.client import connect

    lamp = Lamp()
    inspector = serve([lamp.machine], port=0)
    address = inspector.url.replace("http://", "ws://") + "ws"
    with connect(address, origin=inspector.url.rstrip("/"), open_timeout=5) as client:
        client.recv(timeout=5)
        client.send('{"type": "subscribe", "machines": ["Lamp"]}')
        while '"subscribed"' not in str(client.recv(timeout=5)):
            pass
        assert len(lamp.machine._listeners()) == 1
        inspector.stop()
    assert lamp.machine._listeners() == ()


def test_the_command_serves_and_runs_a_simulation(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(
        [
            "inspect",
            "inspect_samples:recorded_world",
            "--port",
            "0",
            "--frames",
            "5",
            "--fps",
            "200",
        ],
        commands=(COMMAND,),
    )

    out = capsys.readouterr().out
    assert status == EXIT_OK
    assert out.startswith("statetree inspector: http://127.0.0.1:")
    assert out.endswith("/ (for 5 frames; Ctrl-C stops)\n")
    world = inspect_samples.LAST_WORLD[-1]
    assert world.frames == 5
    assert world.attached is not None


@pytest.mark.parametrize(
    ("target", "message"),
    [
        (
            "inspect_samples",
            "name what to inspect in 'inspect_samples' as MODULE:NAME, e.g. "
            "inspect_samples:demo_world (a function returning the world)",
        ),
        (
            "inspect_samples:SOLDIER",
            "'inspect_samples:SOLDIER' is a BitmaskDefinition: name a simulation (an object "
            "with machines() and tick(dt)), a function returning one, a machine, a list of "
            "machines or an initial state class",
        ),
        (
            "inspect_samples:Lamp",
            "'inspect_samples:Lamp' is the class Lamp: name a simulation (an object with "
            "machines() and tick(dt)), a function returning one, a machine, a list of "
            "machines or an initial state class",
        ),
        (
            "inspect_samples:Nothing",
            "inspect_samples has no attribute 'Nothing' (looking for 'Nothing')",
        ),
        (
            "os:getcwd",
            "'os:getcwd' returned a str: name a simulation (an object with machines() and "
            "tick(dt)), a function returning one, a machine, a list of machines or an "
            "initial state class",
        ),
    ],
)
def test_the_command_names_bad_targets(
    capsys: pytest.CaptureFixture[str], target: str, message: str
) -> None:
    status = main(["inspect", target, "--port", "0", "--frames", "1"], commands=(COMMAND,))

    assert status == EXIT_USAGE
    assert capsys.readouterr().err == f"statetree: error: {message}\n"


WORLDS = """\
import inspect_samples


class World:
    def __init__(self, machines=None):
        self.lamp = inspect_samples.Lamp()
        self.listed = [self.lamp.machine] if machines is None else machines

    def machines(self):
        return self.listed

    def tick(self, dt):
        if dt > 0:
            raise ValueError("the world fell over")


def counted():
    return World(machines=5)


def ticking():
    return World()


class Broken(World):
    def machines(self):
        raise KeyError("lamp")


class Stopped(World):
    def tick(self, dt):
        raise KeyboardInterrupt  # Ctrl-C while it runs
"""


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "counted",
            "machines() of 'worlds.py:counted' returned 5, not the machines to inspect "
            "(return a list of them)",
        ),
        (
            "ticking",
            "worlds.py:14: running 'worlds.py:ticking' raised ValueError: the world fell over",
        ),
        ("Broken", "worlds.py:27: machines() of 'worlds.py:Broken' raised KeyError: 'lamp'"),
    ],
)
def test_a_simulation_whose_own_code_fails_is_one_line(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    message: str,
) -> None:
    (tmp_path / "worlds.py").write_text(WORLDS)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(Path(__file__).parent))  # inspect_samples

    argv = ["inspect", f"worlds.py:{name}", "--port", "0", "--frames", "2"]
    status = main(argv, commands=(COMMAND,))

    assert status == EXIT_USAGE
    assert capsys.readouterr().err == f"statetree: error: {message}\n"


def test_ctrl_c_stops_the_inspector_with_the_interrupted_status(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "worlds.py").write_text(WORLDS)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(Path(__file__).parent))  # inspect_samples
    served: list[Any] = []
    real = serve

    def recorded(*args: Any, **kwargs: Any) -> Any:
        served.append(real(*args, **kwargs))
        return served[-1]

    monkeypatch.setattr("statetree.cli.inspect_command.serve", recorded)

    argv = ["inspect", "worlds.py:Stopped", "--port", "0", "--frames", "2"]
    assert main(argv, commands=(COMMAND,)) == EXIT_INTERRUPTED
    assert capsys.readouterr().err == ""
    with pytest.raises(urllib.error.URLError):  # stopped: nothing answers any more
        urllib.request.urlopen(served[0].url, timeout=5)


def test_what_a_target_may_be() -> None:
    lamp = Lamp()
    world = LampWorld()

    assert as_simulation(world) is world
    assert as_simulation(lambda: world) is world
    assert type(as_simulation(LampWorld)) is LampWorld  # a simulation's class makes one
    assert as_simulation(lamp.machine).machines() == [lamp.machine]
    assert as_simulation([lamp.machine]).machines() == [lamp.machine]
    still = as_simulation(inspect_samples.LampStates.Power)
    assert isinstance(still, Still)
    assert [machine.name for machine in still.machines()] == ["LampStates.Power"]  # type: ignore[attr-defined]


def test_pages_that_leave_mid_send_leave_no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    import asyncio

    import websockets

    lamp = Lamp()

    async def hammer(host: str, times: int) -> None:
        for _ in range(times):
            socket = await websockets.connect(f"ws://{host}/ws", origin=f"http://{host}")
            await socket.send('{"type": "subscribe", "machines": ["Lamp"]}')
            socket.transport.abort()  # gone without a closing handshake

    caplog.set_level(logging.WARNING)
    with serve([lamp.machine], port=0, rate=100) as inspector:
        host = inspector.url.split("//")[1].rstrip("/")
        # A thread of its own: the browser tests' Playwright may run a loop on this one.
        client = threading.Thread(target=asyncio.run, args=(hammer(host, 60),))
        client.start()
        client.join()
        for _ in range(20):
            lamp.on = not lamp.on
            lamp.tick()
        wait_until(lambda: inspector.hub.pages == 0, "every page is gone")

    assert [record.getMessage() for record in caplog.records] == []
    assert lamp.machine._listeners() == ()


def test_one_machine_where_a_list_goes_is_refused_before_anything_is_served() -> None:
    lamp = Lamp("desk")
    with pytest.raises(InspectError) as caught:
        serve(lamp.machine, port=0)  # type: ignore[arg-type]
    assert str(caught.value) == (
        f"the inspector takes a list of machines, got {lamp.machine!r}: give [machine] for one"
    )
    assert lamp.machine._listeners() == ()


def test_a_port_out_of_range_is_a_usage_error() -> None:
    with pytest.raises(InspectError) as caught:
        serve([], port=99999)
    assert str(caught.value) == "port must be from 0 (any free port) to 65535; got 99999"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--port", "99999"], "--port must be from 0 (any free port) to 65535; got 99999"),
        (["--rate", "500"], "--rate must be from 0.5 to 120 updates per second, got 500.0"),
        *(
            (
                ["--fps", fps],
                f"--fps must be a number of frames per second from 0.01 to 1000; got {fps}",
            )
            for fps in ("0", "-5", "nan", "1e-300")
        ),
        (["--frames", "-1"], "--frames must be 0 or more; got -1"),
        (
            ["--registry", "game:REGISTRY"],
            "--registry is for chart files; a simulation brings its own",
        ),
    ],
)
def test_the_command_refuses_impossible_options_in_one_line(
    capsys: pytest.CaptureFixture[str], arguments: list[str], message: str
) -> None:
    status = main(["inspect", "inspect_samples:recorded_world", *arguments], commands=(COMMAND,))

    assert status == EXIT_USAGE
    assert capsys.readouterr().err == f"statetree: error: {message}\n"


def test_a_taken_port_is_a_problem_not_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with serve([], port=0) as inspector:
        port = str(port_of(inspector.url))
        status = main(
            ["inspect", "inspect_samples:recorded_world", "--port", port], commands=(COMMAND,)
        )

    assert status == EXIT_FAILED
    assert capsys.readouterr().err == (
        f"statetree: error: cannot listen on 127.0.0.1:{port}: {IN_USE}\n"
    )


def test_a_chart_file_is_inspected_on_its_own(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    chart = tmp_path / "platformer.yaml"
    shutil.copyfile(CHARTS / "platformer.yaml", chart)
    status = main(["inspect", str(chart), "--port", "0", "--frames", "3"], commands=(COMMAND,))

    assert status == EXIT_OK
    assert capsys.readouterr().out.startswith("statetree inspector: http://127.0.0.1:")


def test_a_missing_chart_file_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["inspect", "door.yaml", "--port", "0"], commands=(COMMAND,))

    assert status == EXIT_USAGE
    assert capsys.readouterr().err == "statetree: error: no such chart file: 'door.yaml'\n"


def test_machines_nothing_steps_are_said_to_be_shown_as_they_are(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = main(
        ["inspect", "inspect_samples:LampStates.Power", "--port", "0", "--frames", "1"],
        commands=(COMMAND,),
    )

    assert status == EXIT_OK
    assert capsys.readouterr().out.splitlines()[1] == (
        "nothing steps these machines: the page shows them as they are (name a simulation, "
        "an object with machines() and tick(dt), to run them)"
    )
