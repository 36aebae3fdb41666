"""The game's command line where it meets the machine it runs on: a display that is not
there, Ctrl-C and SIGTERM, ``--frames`` in a window, and an inspector port already taken."""

from __future__ import annotations

import errno
import os
import select
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest
from game import app
from game.app import play_headless
from game.scene import Scene
from game.window import Window
from game.world import World

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NO_X_SERVER = ":4242"
"""An X display no test machine runs."""
FALLBACK = (
    f"No window (DISPLAY={NO_X_SERVER}): SDL found no display and fell back to its offscreen "
    "driver; the bot plays a scripted match instead."
)

linux = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="DISPLAY names an X server on Linux only"
)


def no_x_server(tmp_path: Path) -> dict[str, str]:
    """The environment of a program whose DISPLAY names an X server that is not there."""
    environment = {
        name: value
        for name, value in os.environ.items()
        if name not in ("SDL_VIDEODRIVER", "WAYLAND_DISPLAY")
    }
    # XDG_RUNTIME_DIR set: SDL, looking for Wayland, has nothing to complain of.
    return {**environment, "DISPLAY": NO_X_SERVER, "XDG_RUNTIME_DIR": str(tmp_path)}


def run_without_x(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The game run with ``args`` where ``DISPLAY`` names no X server."""
    return subprocess.run(
        [sys.executable, str(EXAMPLES / "game"), *args],
        capture_output=True,
        text=True,
        env=no_x_server(tmp_path),
        timeout=120,
        check=False,
    )


@linux
def test_a_display_that_is_not_there_plays_the_scripted_match_saying_so(
    tmp_path: Path,
) -> None:
    done = run_without_x(tmp_path, "--frames", "5")

    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == [FALLBACK, *play_headless(World(), 5).lines()]


@linux
def test_a_network_match_without_the_display_it_was_given_is_played_by_the_bot(
    tmp_path: Path,
) -> None:
    done = run_without_x(tmp_path, "--net", "local", "--frames", "60")

    assert (done.returncode, done.stderr) == (0, "")
    lines = done.stdout.splitlines()
    assert lines[0] == FALLBACK.replace("plays a scripted match instead", "plays instead")
    assert lines[-2:] == [
        f"player{number}: confirmed 60 of 60 frames, 0 mispredictions, 0 frames re-simulated, "
        "converged"
        for number in (1, 2)
    ]


@pytest.fixture
def fallen_back(tmp_path: Path) -> Iterator[subprocess.Popen[str]]:
    """The game, played by the bot once it found no display, as soon as it says so."""
    # As in a terminal's foreground, Ctrl-C reaches the game: a test run in the background
    # has SIGINT ignored, which a program would inherit (a handled signal it does not).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        game = subprocess.Popen(
            [sys.executable, str(EXAMPLES / "game")],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=no_x_server(tmp_path),
        )
    finally:
        signal.signal(signal.SIGINT, previous)
    try:
        assert game.stdout is not None
        ready, _, _ = select.select([game.stdout], [], [], 60)
        assert ready, "the game said nothing within 60 s"
        assert game.stdout.readline() == FALLBACK + "\n"
        yield game
    finally:
        if game.poll() is None:
            game.kill()
        game.communicate()


@linux
@pytest.mark.parametrize(
    ("sent", "status"), [(signal.SIGINT, 130), (signal.SIGTERM, -signal.SIGTERM)]
)
def test_ctrl_c_and_sigterm_stop_the_match_played_instead(
    fallen_back: subprocess.Popen[str], sent: signal.Signals, status: int
) -> None:
    # SDL was started to look for the display, and shut down again: it holds no signal.
    fallen_back.send_signal(sent)
    out, err = fallen_back.communicate(timeout=30)

    assert (fallen_back.returncode, out, err) == (status, "", "")


class Shown(Window):
    """The game's window, counting the frames it shows."""

    frames: ClassVar[list[int]] = []

    def show(self, scene: Scene) -> bool:
        Shown.frames.append(scene.frame)
        return super().show(scene)


@pytest.fixture
def window(monkeypatch: pytest.MonkeyPatch) -> type[Shown]:
    """A window can be opened (SDL's dummy driver draws it): the game opens one."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setattr(app, "has_display", lambda: True)
    monkeypatch.setattr("game.window.Window", Shown)
    monkeypatch.setattr(Shown, "frames", [])
    return Shown


def test_frames_closes_the_window_after_that_many(window: type[Shown], tmp_path: Path) -> None:
    last = tmp_path / "last.png"

    assert app.main(["--frames", "5", "--autoplay", "--screenshot", str(last)]) == 0

    assert window.frames == [1, 2, 3, 4, 5]
    assert last.is_file()


@pytest.fixture
def taken_port(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """The inspector's port, taken by another program."""
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = int(taken.getsockname()[1])
        monkeypatch.setattr("game.inspecting.PORT", port)
        yield port


@pytest.mark.parametrize("where", ["--headless", "window"])
def test_inspect_on_a_taken_port_is_one_line_and_exit_status_1(
    taken_port: int, window: type[Shown], capsys: pytest.CaptureFixture[str], where: str
) -> None:
    with pytest.raises(SystemExit) as caught:
        app.main(["--inspect", "--frames", "5", *([where] if where != "window" else [])])

    reason = os.strerror(errno.EADDRINUSE)
    assert caught.value.code == (
        f"python examples/game: error: cannot listen on 127.0.0.1:{taken_port}: {reason}"
    )
    assert capsys.readouterr().out == ""
    assert window.frames == []  # nothing was played


def test_a_chart_file_that_does_not_load_at_start_is_one_line_and_exit_status_1(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from game.enemies import CHART_PATH, load_chart

    broken = tmp_path / "enemy.yaml"
    broken.write_text(CHART_PATH.read_text().replace("style: chase,", "style: chse,"))
    monkeypatch.setattr(app, "load_chart", lambda: load_chart(broken))
    with pytest.raises(SystemExit) as caught:
        app.main(["--headless", "--frames", "5"])
    assert caught.value.code == 1
    error = capsys.readouterr().err
    assert error.startswith(f"python examples/game: error: {broken}:")
    assert "got 'chse'" in error and "Traceback" not in error


@pytest.mark.parametrize(
    ("given", "named"),
    [
        (["--players", "2"], "--players"),
        (["--inspect", "--trace"], "--trace, --inspect"),
        (["--brains", "machines"], "--brains"),
    ],
)
def test_options_a_network_match_does_not_take_are_refused(
    given: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        app.main(["--net", "local", "--headless", *given])
    assert caught.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"python examples/game: error: --net does not take {named}: a network match is two "
        "players, each on a screen of their own"
    )


@pytest.mark.parametrize(
    ("given", "named"),
    [
        (["--connect", "example.org:9000"], "--connect is"),
        (["--bad-link"], "--bad-link is"),
        (["--port", "9999", "--loss", "0.1"], "--port, --loss are"),
    ],
)
def test_network_options_without_a_network_match_are_refused(
    given: list[str], named: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        app.main(["--headless", *given])
    assert caught.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"python examples/game: error: {named} for network matches: add --net local, --net "
        "server or --net client"
    )
