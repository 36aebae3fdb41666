"""One page's websocket: its commands in, its batches out."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from statetree.errors import StateTreeError
from statetree.inspect.adapters import EditsSource, Explains, InspectError
from statetree.inspect.hub import Hub
from statetree.inspect.protocol import Command, parse_message
from statetree.inspect.views import Views, view_token
from statetree.inspect.watcher import Watcher

__all__ = ["Connection"]

EDIT_TIMEOUT = 10.0
"""How long a chart edit may wait for the program to reload it."""

Handler = Callable[["Connection", Command], Awaitable[dict[str, Any]]]


class Connection:
    """Serves one page: validates its commands and sends it batches when woken."""

    def __init__(self, websocket: WebSocket, hub: Hub, views: Views, rate: float) -> None:
        self.websocket = websocket
        self.hub = hub
        self.views = views
        self.rate = rate
        self.watcher = Watcher()
        self.wake = asyncio.Event()
        self._send_lock = asyncio.Lock()
        self._tokens: dict[str, int] = {}

    async def run(self) -> None:
        """Talk to the page until it leaves; its subscriptions end with it."""
        await self.send(self._hello())
        writer = asyncio.create_task(self._write())
        try:
            await self._read()
        finally:
            writer.cancel()
            self.hub.forget(self.watcher)

    def _hello(self) -> dict[str, Any]:
        frame, paused, driven, lost = self.hub.status()
        return {
            "type": "hello",
            "protocol": 1,
            "machines": self.hub.catalog(),
            "rate": self.rate,
            "frame": frame,
            "paused": paused,
            "driven": driven,
            "lost": lost,
        }

    async def send(self, message: dict[str, Any]) -> None:
        """Send one JSON message (sends never interleave)."""
        async with self._send_lock:
            await self.websocket.send_json(message)

    async def _read(self) -> None:
        while True:
            try:
                message = await self.websocket.receive()
            except WebSocketDisconnect:
                return
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if text is None:
                await self.send(_error("send JSON text messages, not binary ones", None))
                continue
            await self._handle(text)

    async def _handle(self, text: str) -> None:
        command: Command | None = None
        try:
            command = parse_message(text)
            reply = await HANDLERS[command.type](self, command)
        except StateTreeError as error:
            await self.send(_error(str(error), command))
            return
        if command.ref is not None:
            reply["ref"] = command.ref
        await self.send(reply)
        self.wake.set()

    async def _write(self) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            batch = self.watcher.batch(self.hub.latest, self.hub.status(), self.views.describe)
            if batch is None:
                continue
            # A view may have changed (a chart reloaded with new states): resend it first.
            for machine_id in [m for m in self.hub.ids if m in self.watcher.machines]:
                await self._refresh_view(machine_id)
            await self.send(batch)

    async def _refresh_view(self, machine_id: str) -> None:
        adapter = self.hub.adapter(machine_id)
        token = view_token(adapter)
        if self._tokens.get(machine_id) != token:
            # The token is set once the view is sent, so no batch can overtake it.
            await self.send(await asyncio.to_thread(self.views.view_message, machine_id))
            self._tokens[machine_id] = token

    # -- commands -----------------------------------------------------------------------------

    async def subscribe(self, command: Command) -> dict[str, Any]:
        added = self.hub.watch(self.watcher, command["machines"])
        for machine_id in added:
            await self._refresh_view(machine_id)
        return self._subscriptions()

    async def unsubscribe(self, command: Command) -> dict[str, Any]:
        for machine_id in self.hub.unwatch(self.watcher, command["machines"]):
            self._tokens.pop(machine_id, None)
        return self._subscriptions()

    def _subscriptions(self) -> dict[str, Any]:
        watched = self.watcher.machines
        return {"type": "subscribed", "machines": [m for m in self.hub.ids if m in watched]}

    async def pause(self, command: Command) -> dict[str, Any]:
        self.hub.gate.pause(command["paused"])
        return {"type": "paused", "paused": command["paused"]}

    async def step(self, command: Command) -> dict[str, Any]:
        self.hub.gate.step(command["frames"])
        return {"type": "stepped", "frames": command["frames"]}

    async def explain(self, command: Command) -> dict[str, Any]:
        adapter = self.hub.adapter(command["machine"])
        if not isinstance(adapter, Explains):
            raise InspectError(f"machine {command['machine']!r} cannot explain its states")
        found = adapter.explain(command["state"])
        return {
            "type": "explained",
            "machine": command["machine"],
            "state": found.state,
            "possible": found.possible,
            "text": found.text,
            "reasons": list(found.reasons),
        }

    async def chart_source(self, command: Command) -> dict[str, Any]:
        editor = self._editor(command["machine"])
        source = await asyncio.to_thread(editor.source)
        return {"type": "chart-source", "machine": command["machine"], **source}

    async def edit_chart(self, command: Command) -> dict[str, Any]:
        editor = self._editor(command["machine"])
        prepared = await asyncio.to_thread(editor.prepare, command["edit"])
        # The running machine is reloaded on the program's thread, between two frames.
        done = self.hub.call(functools.partial(editor.commit, prepared))
        try:
            result = await asyncio.wait_for(asyncio.wrap_future(done), EDIT_TIMEOUT)
        except asyncio.TimeoutError:
            raise InspectError(
                f"the program did not apply the edit within {EDIT_TIMEOUT:g} s: is its loop "
                "still calling Inspector.frame()?"
            ) from None
        source = await asyncio.to_thread(editor.source)
        return {"type": "chart-edited", "machine": command["machine"], **result, **source}

    def _editor(self, machine_id: str) -> EditsSource:
        adapter = self.hub.adapter(machine_id)
        if not isinstance(adapter, EditsSource):
            raise InspectError(f"machine {machine_id!r} was not loaded from a file it can edit")
        return adapter


HANDLERS: dict[str, Handler] = {
    "subscribe": Connection.subscribe,
    "unsubscribe": Connection.unsubscribe,
    "pause": Connection.pause,
    "step": Connection.step,
    "explain": Connection.explain,
    "chart-source": Connection.chart_source,
    "edit-chart": Connection.edit_chart,
}
"""The handler of each command of :data:`~statetree.inspect.protocol.COMMANDS`."""


def _error(message: str, command: Command | None) -> dict[str, Any]:
    reply: dict[str, Any] = {"type": "error", "message": message}
    if command is not None:
        reply["request"] = command.type
        if command.ref is not None:
            reply["ref"] = command.ref
    return reply
