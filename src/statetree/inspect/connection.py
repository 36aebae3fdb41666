"""One page's websocket: its commands in, its batches out.

A page may leave at any moment, even in the middle of a send: a send to a page that left
ends its connection quietly (the program's console gets no traceback), and the page's
subscriptions end with it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected

from statetree.chart.errors import ChartError
from statetree.errors import StateTreeError
from statetree.inspect.commands import HANDLERS, WAITING, problems_of
from statetree.inspect.hub import Hub
from statetree.inspect.protocol import Command, ProtocolError, parse_message
from statetree.inspect.views import Views, view_token
from statetree.inspect.watcher import Watcher

__all__ = ["GONE", "Connection"]

logger = logging.getLogger("statetree.inspect")

GONE = (WebSocketDisconnect, WebSocketDisconnected, OSError)
"""What sending to, or receiving from, a page that left raises."""


class Connection:
    """Serves one page: validates its commands and sends it batches when woken."""

    def __init__(self, websocket: WebSocket, hub: Hub, views: Views, rate: float) -> None:
        self.websocket = websocket
        self.hub = hub
        self.views = views
        self.rate = rate
        self.watcher = Watcher()
        self.wake = asyncio.Event()
        self.closed = False
        self._send_lock = asyncio.Lock()
        self._view_lock = asyncio.Lock()
        self._tokens: dict[str, int] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def run(self) -> None:
        """Talk to the page until it leaves; its subscriptions end with it."""
        self.hub.opened()
        writer = asyncio.create_task(self._write())
        try:
            await self.send(self._hello())
            await self._read()
        finally:
            self.closed = True
            for task in (writer, *self._tasks):
                task.cancel()
            self.hub.closed(self.watcher)

    def _hello(self) -> dict[str, Any]:
        frame, paused, driven, lost, hit = self.hub.status()
        return {
            "type": "hello",
            "protocol": 2,
            "program": self.hub.program,
            "machines": self.hub.catalog(),
            "rate": self.rate,
            "frame": frame,
            "paused": paused,
            "driven": driven,
            "lost": lost,
            "hit": hit,
        }

    async def send(self, message: dict[str, Any]) -> None:
        """Send one JSON message (sends never interleave); a page that left ends the
        connection instead."""
        await self._send_made(lambda: message)

    async def _send_made(self, make: Callable[[], dict[str, Any] | None]) -> bool:
        """Send what ``make`` returns (nothing if ``None``); whether it was sent.

        ``make`` runs once the messages before it are sent, and its message goes out
        before any other: what it reads of the subscriptions is what they are when the
        page gets it (an ``unsubscribe`` handled meanwhile has its reply sent after).
        """
        async with self._send_lock:
            message = None if self.closed else make()
            if message is None:
                return False
            try:
                await self.websocket.send_json(message)
            except GONE:
                self.closed = True
            return True

    async def _read(self) -> None:
        while not self.closed:
            try:
                message = await self.websocket.receive()
            except GONE:
                return
            if message["type"] == "websocket.disconnect":
                return
            await self._receive(message.get("text"))

    async def _receive(self, text: str | None) -> None:
        if text is None:
            await self.send(_error("send JSON text messages, not binary ones"))
            return
        try:
            command = parse_message(text)
        except ProtocolError as error:
            # Echo what the message said of itself, so the page can match the reply.
            await self.send(_error(str(error), error.request, error.ref))
            return
        if command.type in WAITING:
            task = asyncio.create_task(self._handle(command))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        else:
            await self._handle(command)

    async def _handle(self, command: Command) -> None:
        try:
            reply = await HANDLERS[command.type](self, command)
        except StateTreeError as error:
            await self.send(_error(str(error), command.type, command.ref, error))
            return
        except Exception as error:  # a bug: the page is told, the program keeps running
            logger.exception("the inspector failed to answer a %r message", command.type)
            await self.send(_error(f"the inspector failed: {error!r}", command.type, command.ref))
            return
        if command.ref is not None:
            reply["ref"] = command.ref
        await self.send(reply)
        self.wake.set()

    async def _write(self) -> None:
        while not self.closed:
            await self.wake.wait()
            self.wake.clear()
            # A view may have changed (a chart reloaded with new states): resend it first.
            for machine_id in [m for m in self.hub.ids if self._watches(m)]:
                await self.refresh_view(machine_id)
            # Made only now: a batch made before an unsubscribe and sent after its reply
            # would bring back the card the page had just removed.
            await self._send_made(self._batch)

    def _batch(self) -> dict[str, Any] | None:
        return self.watcher.batch(self.hub.latest, self.hub.status(), self.views.describe)

    async def refresh_view(self, machine_id: str) -> None:
        """Send the machine's view if the page watches it and does not have this one yet."""
        # One refresh at a time: the subscribe reply and a batch may both find the view
        # missing, and a page sent it twice would draw its card (and editor) twice.
        async with self._view_lock:
            if not self._watches(machine_id):
                return
            token = view_token(self.hub.adapter(machine_id))
            if self._tokens.get(machine_id) == token:
                return
            view = await asyncio.to_thread(self.views.view_message, machine_id)
            # The page may have unsubscribed while the view was drawn: then it never gets
            # it (it would draw a card for a machine it no longer watches).
            if await self._send_made(lambda: view if self._watches(machine_id) else None):
                # Set once the view is sent, so no batch can overtake it.
                self._tokens[machine_id] = token

    def _watches(self, machine_id: str) -> bool:
        return machine_id in self.watcher.machines

    def forget_view(self, machine_id: str) -> None:
        """The page no longer has the machine's view (it unsubscribed)."""
        self._tokens.pop(machine_id, None)


def _error(
    message: str,
    request: str | None = None,
    ref: int | None = None,
    error: StateTreeError | None = None,
) -> dict[str, Any]:
    """The error reply to a message (``request`` names its command, ``ref`` is echoed)."""
    reply: dict[str, Any] = {"type": "error", "message": message}
    if request is not None:
        reply["request"] = request
    if ref is not None:
        reply["ref"] = ref
    if isinstance(error, ChartError):
        reply["problems"] = problems_of(error)
    return reply
