"""``statetree run`` at a terminal: a hint and a prompt, each line played as it is typed."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHART = ROOT / "examples" / "charts" / "basic_attack.yaml"
PROMPT = b"event> "

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX terminal")


class Terminal:
    """``statetree run`` on a pseudo-terminal, typed into like a person would."""

    def __init__(self, *argv: str) -> None:
        import pty

        self.screen, child = pty.openpty()
        command = [sys.executable, "-m", "statetree", *argv]
        env = {**os.environ, "COLUMNS": "200"}
        self.process = subprocess.Popen(command, stdin=child, stdout=child, stderr=child, env=env)
        os.close(child)
        self.seen = b""

    def read_until(self, ending: bytes | None, timeout: float = 30.0) -> str:
        """What the program writes next, until it ends with ``ending`` (a prompt; ``None``:
        until the program closes the terminal)."""
        start = len(self.seen)
        deadline = time.monotonic() + timeout
        while ending is None or not self.seen[start:].endswith(ending):
            assert time.monotonic() < deadline, f"no {ending!r} after {self.seen[start:]!r}"
            ready, _, _ = select.select([self.screen], [], [], 0.1)
            if ready:
                try:
                    self.seen += os.read(self.screen, 4096)
                except OSError:  # the program ended and closed the terminal
                    assert ending is None, self.seen[start:]
                    break
        return self.seen[start:].decode().replace("\r\n", "\n")

    def type(self, text: bytes) -> None:
        os.write(self.screen, text)

    def close(self) -> int:
        """The program's exit status (a program still waiting for input is ended)."""
        try:
            return self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()
        finally:
            os.close(self.screen)


def test_run_at_a_terminal_prompts_and_plays_each_line_as_typed() -> None:
    terminal = Terminal("run", str(CHART))
    try:
        first = terminal.read_until(PROMPT)
        assert "Type one event per line: KIND NAME (KIND is one of input, anim_finished" in first
        assert first.endswith(
            "  enter Character.Idle: play_animation(name='Idle', loop=True)\nevent> "
        )

        terminal.type(b"input BasicAttackButton\n")
        played = terminal.read_until(PROMPT)
        assert played.startswith("input BasicAttackButton\n> input BasicAttackButton\n")
        assert "HSM_1_BasicAttack:  Inner   : Character.BasicAttack\n" in played

        terminal.type(b"inpt Jump\n")
        refused = terminal.read_until(PROMPT)
        assert "! <stdin>:2: unknown event kind 'inpt' (did you mean 'input'?)" in refused

        terminal.type(b"\x04")  # Ctrl-D
        ended = terminal.read_until(None)
    finally:
        code = terminal.close()
    assert code == 0
    assert ended.strip() == "active: Character, Character.BasicAttack"
