"""What the browser tests share: a program looping on its own thread, and page helpers.

Every wait is for a condition (Playwright's auto-waiting ``expect``, or :func:`wait_until`
polling a condition), never for a fixed time.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib.util import find_spec
from typing import Any

import pytest
from inspector_screenshots import chromium_path

from statetree.inspect import Inspector, serve

BROWSER = [
    pytest.mark.skipif(chromium_path() is None, reason="Chromium is not installed"),
    pytest.mark.skipif(
        find_spec("playwright") is None or find_spec("uvicorn") is None,
        reason="Playwright or the inspect extra is not installed",
    ),
]
"""The marks of a browser test module: skipped only without Chromium or Playwright."""


class Loop:
    """A game loop on its own thread: ``tick`` each frame the inspector lets through."""

    def __init__(self, inspector: Inspector, tick: Callable[[], None]) -> None:
        self.inspector = inspector
        self.tick = tick
        self.frames = 0
        self.running = True
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        while self.running:
            if self.inspector.frame():
                self.tick()
                self.frames += 1
            time.sleep(0.005)  # the pace of the game, not a wait for a result

    def stop(self) -> None:
        self.running = False
        self.thread.join(5)


@contextmanager
def served(machines: list[object], tick: Callable[[], None]) -> Iterator[Inspector]:
    """An inspector serving ``machines`` (30 updates a second), with a loop calling ``tick``
    each frame it lets through, until the block ends."""
    with serve(machines, port=0, rate=30) as inspector:
        loop = Loop(inspector, tick)
        try:
            yield inspector
        finally:
            loop.stop()


def wait_until(condition: Callable[[], bool], what: str, timeout: float = 10.0) -> None:
    """Poll ``condition`` until it holds; fail naming ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting until {what}")
        time.sleep(0.01)


def lit(machine: str, state: str) -> str:
    """The selector of a state shown active in a machine's card."""
    return f'article[data-machine="{machine}"] [data-state="{state}"].st-active'


def card(page: Any, machine: str) -> Any:
    """The card of a machine."""
    return page.locator(f'article[data-machine="{machine}"]')


def node(page: Any, machine: str, state: str) -> Any:
    """A state in a machine's diagram: its node, or the box of a state drawn with its
    children inside (a chart's statechart)."""
    found = f'svg g.node[data-state="{state}"], svg g.cluster[data-state="{state}"]'
    return card(page, machine).locator(found)


def grip(page: Any, machine: str, state: str) -> Any:
    """Where a person presses a state: its node, or the name on its box."""
    found = f'svg g.node[data-state="{state}"], svg g.cluster[data-state="{state}"] > text'
    return card(page, machine).locator(found)


def flick(page: Any, lamp: Any) -> None:
    """Turn ``lamp`` (an ``inspect_samples.Lamp``) on, then off, as the page shows it."""
    lamp.on = True
    page.wait_for_selector(lit("Lamp", "LampStates.On"))
    lamp.on = False
    page.wait_for_selector(lit("Lamp", "LampStates.Off"))


class HeldReplies:
    """Holds back the server's replies of one type to a page, until :meth:`release`: shows
    what the page does with a click made before the answer to the last one came.

    Made before the page opens the inspector; it passes every reply on until :meth:`hold`.
    """

    def __init__(self, page: Any) -> None:
        self.page = page
        self.kind: str | None = None
        self.held: list[str | bytes] = []
        self.sockets: list[Any] = []
        page.route_web_socket("**/ws", self._route)

    def _route(self, socket: Any) -> None:
        server = socket.connect_to_server()
        self.sockets.append(socket)

        def to_page(message: str | bytes) -> None:
            if self.kind is not None and json.loads(message).get("type") == self.kind:
                self.held.append(message)
            else:
                socket.send(message)

        server.on_message(to_page)

    def hold(self, kind: str) -> None:
        """Hold the replies of type ``kind`` from now on."""
        self.kind = kind

    def wait(self, count: int) -> None:
        """Wait until ``count`` replies are held (Playwright reads the socket only while
        the test calls it, hence the call in the condition)."""
        page = self.page
        wait_until(lambda: page.evaluate("true") and len(self.held) >= count, "replies held")

    def release(self) -> None:
        """Stop holding; send the page every reply held, in order."""
        self.kind = None
        for message in self.held:
            self.sockets[-1].send(message)
        self.held.clear()
