"""What the server does for each command of a page, and what it replies.

Each handler gets the page's :class:`~statetree.inspect.connection.Connection` and a
validated :class:`~statetree.inspect.protocol.Command`, and returns the reply. Anything
that changes a machine (a chart edit, an event) runs on the program's thread at a safe
point (:meth:`Hub.call`), and the handler waits for it; a page's error is raised as a
:class:`~statetree.StateTreeError` and sent back as an ``error`` message.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, TypeVar

from statetree.chart.errors import ChartError
from statetree.inspect.adapters import EditsSource, Explains, InspectError, ReceivesEvents
from statetree.inspect.chart_file import Unchanged
from statetree.inspect.protocol import Command

if TYPE_CHECKING:
    from statetree.inspect.connection import Connection

__all__ = ["HANDLERS", "WAITING", "problems_of"]

PROGRAM_TIMEOUT = 10.0
"""How long a change may wait for the program to reach a safe point."""

T = TypeVar("T")

Handler = Callable[["Connection", Command], Awaitable[dict[str, Any]]]


async def _on_program(done: Future[T]) -> T:
    """The result of a change queued with :meth:`Hub.call`, once the program made it."""
    try:
        return await asyncio.wait_for(asyncio.wrap_future(done), PROGRAM_TIMEOUT)
    except asyncio.TimeoutError:
        raise InspectError(
            f"the program did not reach a safe point within {PROGRAM_TIMEOUT:g} s, so the "
            "change was dropped: is its loop still calling Inspector.frame() (or, without "
            "it, still driving the machine)?"
        ) from None


async def subscribe(connection: Connection, command: Command) -> dict[str, Any]:
    added = connection.hub.watch(connection.watcher, command["machines"])
    for machine_id in added:
        await connection.refresh_view(machine_id)
    return _subscriptions(connection)


async def unsubscribe(connection: Connection, command: Command) -> dict[str, Any]:
    for machine_id in connection.hub.unwatch(connection.watcher, command["machines"]):
        connection.forget_view(machine_id)
    return _subscriptions(connection)


def _subscriptions(connection: Connection) -> dict[str, Any]:
    watched = connection.watcher.machines
    return {"type": "subscribed", "machines": [m for m in connection.hub.ids if m in watched]}


async def pause(connection: Connection, command: Command) -> dict[str, Any]:
    connection.hub.gate.pause(command["paused"])
    return {"type": "paused", "paused": command["paused"]}


async def step(connection: Connection, command: Command) -> dict[str, Any]:
    connection.hub.gate.step(command["frames"])
    return {"type": "stepped", "frames": command["frames"]}


async def explain(connection: Connection, command: Command) -> dict[str, Any]:
    adapter = connection.hub.adapter(command["machine"])
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


def _editor(connection: Connection, machine_id: str) -> EditsSource:
    adapter = connection.hub.adapter(machine_id)
    if not isinstance(adapter, EditsSource):
        raise InspectError(f"machine {machine_id!r} was not loaded from a file it can edit")
    return adapter


async def chart_source(connection: Connection, command: Command) -> dict[str, Any]:
    editor = _editor(connection, command["machine"])
    source = await asyncio.to_thread(editor.source)
    return {"type": "chart-source", "machine": command["machine"], **source}


async def check_chart(connection: Connection, command: Command) -> dict[str, Any]:
    """Load an edit without saving it: the page shows the loader's problems as you type."""
    editor = _editor(connection, command["machine"])
    reply: dict[str, Any] = {"type": "chart-checked", "machine": command["machine"]}
    try:
        await asyncio.to_thread(editor.prepare, command["edit"])
    except Unchanged:
        pass
    except ChartError as error:
        return {**reply, "ok": False, "problems": problems_of(error)}
    return {**reply, "ok": True, "problems": []}


def _turn(connection: Connection, machine_id: str) -> asyncio.Lock:
    """The turn of ``machine_id``'s changes: its edits and events, from every page, are
    made one at a time in the order they came (each edit is checked on the file the one
    before left), while the pages' other commands go on being answered."""
    return connection.hub.turns.setdefault(machine_id, asyncio.Lock())


async def edit_chart(connection: Connection, command: Command) -> dict[str, Any]:
    machine_id = command["machine"]
    editor = _editor(connection, machine_id)
    async with _turn(connection, machine_id):
        prepared = await asyncio.to_thread(editor.prepare, command["edit"])
        # The running machine is reloaded on the program's thread, between two frames.
        done = connection.hub.call(functools.partial(editor.commit, prepared), machine_id)
        result = await _on_program(done)
        source = await asyncio.to_thread(editor.source)
    return {"type": "chart-edited", "machine": machine_id, **result, **source}


async def send_event(connection: Connection, command: Command) -> dict[str, Any]:
    machine_id = command["machine"]
    adapter = connection.hub.adapter(machine_id)
    if not isinstance(adapter, ReceivesEvents):
        raise InspectError(f"machine {machine_id!r} takes no events from the page")
    trigger, name, mode = command["trigger"], command["name"], command["mode"]
    send = functools.partial(adapter.send_event, trigger, name, mode)
    async with _turn(connection, machine_id):
        await _on_program(connection.hub.call(send, machine_id))
    return {
        "type": "event-sent",
        "machine": machine_id,
        "trigger": trigger,
        "name": name,
        "mode": mode,
    }


async def set_breakpoint(connection: Connection, command: Command) -> dict[str, Any]:
    machine_id = command["machine"]
    hub = connection.hub
    hub.set_breakpoint(machine_id, command["on"], command["target"], command["set"])
    found = [list(item) for item in hub.breakpoints(machine_id)]
    return {"type": "breakpoints", "machine": machine_id, "breakpoints": found}


async def travel(connection: Connection, command: Command) -> dict[str, Any]:
    machine_id = command["machine"]
    travelled = connection.hub.travel(machine_id, command["seq"])
    return connection.views.travel_message(machine_id, travelled)


def problems_of(error: ChartError) -> list[dict[str, Any]]:
    """The loader's problems as the page shows them next to the fields they are about
    (a problem inside a pattern names the uses it came through after its message)."""
    return [
        {
            "message": problem.described,
            "path": problem.path,
            "line": problem.line,
            "file": problem.file,
        }
        for problem in error.problems
    ]


HANDLERS: dict[str, Handler] = {
    "subscribe": subscribe,
    "unsubscribe": unsubscribe,
    "pause": pause,
    "step": step,
    "explain": explain,
    "chart-source": chart_source,
    "edit-chart": edit_chart,
    "check-chart": check_chart,
    "send-event": send_event,
    "set-breakpoint": set_breakpoint,
    "travel": travel,
}
"""The handler of each command of :data:`~statetree.inspect.protocol.COMMANDS`."""

WAITING = frozenset({"edit-chart", "send-event"})
"""Commands that wait for the program: handled beside the page's other commands, so a
program slow to reach a safe point does not hold them up."""
