"""What the page draws: diagrams rendered as ``statetree plot`` renders them, highlights.

Diagrams are laid out once per structure on the server, with the same DOT text and the
same Graphviz as ``statetree plot``; the page then only changes the colours of the active
states, found by name in the SVG (Graphviz writes each node's name as its ``<title>``).
Which nodes and links are active is decided by :func:`statetree.plot.build_diagram`, as
for a plot of a live machine.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import asdict
from typing import Any, cast

from statetree.core.transition import TransitionKind
from statetree.inspect.adapters import (
    CountsAgents,
    DecodedPacket,
    DiagramView,
    Layout,
    MachineView,
    PopulationView,
    ReceivesEvents,
    Sample,
    WatchedMachine,
)
from statetree.inspect.hub import Hub
from statetree.inspect.trail import Travelled
from statetree.inspect.values import text_of
from statetree.plot import DEFAULT_STYLE, PlotStyle, RenderError, build_diagram, render, to_dot
from statetree.plot.nested import nested_to_dot
from statetree.structure import Edge, Structure

__all__ = ["Views", "regions", "travel_highlight", "view_token"]

_HIGHLIGHTS = 4096
"""How many (structure, active states) highlights are remembered."""


class Views:
    """Turns adapters' views and values into the JSON the page receives.

    Args:
        hub: the machines.
        style: the plot style (the same default as ``statetree plot``).
    """

    def __init__(self, hub: Hub, style: PlotStyle = DEFAULT_STYLE) -> None:
        self.hub = hub
        self.style = style
        self._lock = threading.Lock()
        self._svgs: dict[tuple[int, Layout], tuple[Structure, dict[str, Any]]] = {}
        self._highlights: OrderedDict[tuple[int, tuple[str, ...]], dict[str, Any]] = OrderedDict()

    def view_message(self, machine_id: str) -> dict[str, Any]:
        """The ``view`` message of a machine (renders its diagram the first time).

        Rendering runs Graphviz, so call this from a worker thread.
        """
        adapter = self.hub.adapter(machine_id)
        view = adapter.view()
        message = {"type": "view", "machine": machine_id, **self._view(view)}
        if isinstance(adapter, ReceivesEvents):
            message["palette"] = [asdict(trigger) for trigger in adapter.palette()]
        if isinstance(view, PopulationView) and isinstance(adapter, CountsAgents):
            message["population"] = _samples(adapter.samples(-1))
        return message

    def _view(self, view: MachineView) -> dict[str, Any]:
        if isinstance(view, DiagramView):
            return self._diagram(view.structure, view.layout)
        return {"view": "flags", "flags": [asdict(flag) for flag in view.flags]}

    def _diagram(self, structure: Structure, layout: Layout) -> dict[str, Any]:
        key = (id(structure), layout)
        with self._lock:
            cached = self._svgs.get(key)
        if cached is not None:
            return cached[1]
        style = self.style
        found: dict[str, Any] = {
            "view": "diagram",
            "states": list(structure.names),
            "regions": regions(structure),
            "colors": {
                "fill": style.active_fill,
                "text": style.active_text,
                "line": style.active_line,
            },
        }
        try:
            found.update(_layouts(structure, layout, style))
        except RenderError as error:
            found["svg"] = ""
            found["error"] = str(error)
        with self._lock:
            self._svgs[key] = (structure, found)
        return found

    def describe(self, channel: str, machine_id: str, value: object) -> Any:
        """What the page receives for the latest ``value`` of a machine in ``channel``."""
        adapter = self.hub.adapter(machine_id)
        if channel == "packets":
            return _packet(adapter, cast("tuple[int, bytes]", value)[1])
        if channel == "breaks":
            return [list(item) for item in cast("tuple[tuple[str, str], ...]", value)]
        if channel == "population":
            return _samples(cast("tuple[Sample, ...]", value))
        active = cast("tuple[str, ...]", value)
        view = adapter.view()
        if isinstance(view, DiagramView):
            return self._highlight(view.structure, active)
        return travel_highlight(view, active)

    def travel_message(self, machine_id: str, travelled: Travelled) -> dict[str, Any]:
        """The ``travelled`` message: the machine as it was just after one timeline row.

        ``pending`` says that the values of the row's frame are not read yet (a program that
        calls ``Inspector.frame()`` has them read when its next frame begins).
        """
        view = self.hub.adapter(machine_id).view()
        values = travelled.values
        return {
            "pending": values is None and self.hub.gate.driven,
            "type": "travelled",
            "machine": machine_id,
            "seq": travelled.seq,
            "frame": travelled.frame,
            "highlight": travel_highlight(view, travelled.active),
            "values": None
            if values is None
            else [[group, name, text_of(value)] for group, name, value in values],
        }

    def _highlight(self, structure: Structure, active: tuple[str, ...]) -> dict[str, Any]:
        key = (id(structure), active)
        found = self._highlights.get(key)
        if found is None:
            # A live machine can run a state its structure lacks (one an override pushes, when
            # the structure came from the initial class): it is left unlit, not refused.
            drawn = tuple(name for name in active if name in structure)
            diagram = build_diagram(structure, drawn, self.style)
            found = {
                "states": [node.key for node in diagram.nodes if node.active],
                "links": [[link.source, link.target] for link in diagram.links if link.active],
                "order": list(active),
            }
            self._highlights[key] = found
            if len(self._highlights) > _HIGHLIGHTS:
                self._highlights.popitem(last=False)
        else:
            self._highlights.move_to_end(key)
        return found


def _layouts(structure: Structure, preferred: Layout, style: PlotStyle) -> dict[str, Any]:
    """The diagram in every layout the structure allows, ``preferred`` first (the book's
    when it cannot be nested): ``layout`` (the one shown), its ``svg``, and ``layouts``,
    the SVG of each.

    Raises:
        RenderError: Graphviz is missing or failed.
    """
    dots: dict[Layout, str | None] = {
        "nested": nested_to_dot(structure, style=style),
        "tree": to_dot(structure, style=style),
    }
    svgs = {name: render(dot, "svg").decode() for name, dot in dots.items() if dot is not None}
    shown = preferred if preferred in svgs else "tree"
    return {"layout": shown, "svg": svgs[shown], "layouts": svgs}


def regions(structure: Structure) -> list[dict[str, Any]]:
    """The concurrent regions of ``structure``: each region's host, its root and every
    state that can be active inside it (the root's descendants), for drawing them as
    boxes and showing the active states region by region."""
    found = []
    for edge in structure.edges:
        if edge.kind is TransitionKind.CONCURRENT:
            members = _reachable(structure, edge.target)
            found.append({"host": edge.source, "root": edge.target, "members": members})
    return found


def _reachable(structure: Structure, start: str) -> list[str]:
    """``start`` and every state its edges lead to, in structure order."""
    seen = {start}
    pending = [start]
    while pending:
        for edge in structure.edges_from(pending.pop()):
            if edge.target not in seen and edge.target in structure:
                seen.add(edge.target)
                pending.append(edge.target)
    return [name for name in structure.names if name in seen]


def travel_highlight(view: MachineView, active: tuple[str, ...]) -> dict[str, Any]:
    """What to light for a configuration read back from the timeline: its states, and the
    links between two of them that are not sibling transitions."""
    if not isinstance(view, DiagramView):
        return {"states": list(active), "links": [], "order": list(active)}
    structure = view.structure
    lit = set(active)
    links = [
        edge
        for edge in structure.edges
        if edge.kind is not TransitionKind.SIBLING and edge.source in lit and edge.target in lit
    ]
    return {
        "states": [name for name in structure.names if name in lit],
        "links": [[edge.source, edge.target] for edge in links],
        "order": _walk_order(structure, active, links),
    }


def _walk_order(structure: Structure, active: tuple[str, ...], links: list[Edge]) -> list[str]:
    """``active`` outermost first, each state's inners (regions in order) after it, as a
    machine walks its states."""
    inners: dict[str, list[str]] = {}
    placed: set[str] = set()
    for edge in links:
        if edge.target not in placed:
            placed.add(edge.target)
            inners.setdefault(edge.source, []).append(edge.target)
    outermost = [name for name in (*structure.names, *active) if name in active]
    pending = list(reversed(dict.fromkeys(n for n in outermost if n not in placed)))
    order: list[str] = []
    while pending:
        name = pending.pop()
        if name in order:
            continue
        order.append(name)
        pending.extend(reversed(inners.get(name, [])))
    return order


def _samples(samples: tuple[Sample, ...]) -> list[list[int]]:
    """Samples as the page reads them: the frame, then the count of each state."""
    return [[frame, *counts] for frame, counts in samples]


def _packet(adapter: WatchedMachine, data: bytes) -> dict[str, Any]:
    decode = getattr(adapter, "decode_packet", None)
    if decode is None:
        return {"hex": data.hex(" "), "error": "this machine has no packet decoder"}
    packet: DecodedPacket = decode(data)
    return {
        "hex": packet.data.hex(" "),
        "size": len(packet.data),
        "bit_order": packet.bit_order,
        "fields": [asdict(field) for field in packet.fields],
        "summary": packet.summary,
        "error": packet.error,
    }


def view_token(adapter: WatchedMachine) -> int:
    """Changes when the machine's view does (a chart reloaded with new states)."""
    view = adapter.view()
    return id(view.structure) if isinstance(view, DiagramView) else id(view)
