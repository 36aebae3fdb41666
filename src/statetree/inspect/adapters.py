"""What the inspector needs from a machine, as small protocols every kind of machine fits.

A :class:`WatchedMachine` is the one thing the inspector knows about a machine: a label,
a view to draw (a diagram from a :class:`~statetree.structure.Structure`, or a table of
flags), the names of the active states, and a stream of steps that starts only when a page
watches the machine. Optional capabilities are separate protocols: :class:`Explains`
(why a state cannot activate), :class:`DecodesPackets` (the bytes of a serialised update,
field by field) and :class:`EditsSource` (a chart file edited from the page).

Class-based machines, bitmask machines and charts each plug in through one adapter;
:func:`adapt` picks it. Anything else can be watched by writing an adapter.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

from statetree.errors import UsageError
from statetree.structure.model import Structure

__all__ = [
    "Category",
    "CountsAgents",
    "DecodedPacket",
    "DecodesPackets",
    "DiagramView",
    "EditsSource",
    "Event",
    "Explained",
    "Explains",
    "Flag",
    "FlagsView",
    "InspectError",
    "Layout",
    "MachineView",
    "Note",
    "PacketField",
    "PopulationView",
    "PreparedEdit",
    "ReceivesEvents",
    "RunsLater",
    "Sample",
    "ShowsValues",
    "Trigger",
    "Value",
    "WatchedMachine",
]


class InspectError(UsageError):
    """The inspector was given something it cannot watch or serve."""


Category = Literal["enter", "exit", "event", "action", "edit"]
"""The kinds of timeline lines."""

Layout = Literal["nested", "tree"]
"""How a diagram is laid out: a statechart (children inside their parent), or the HSM book's
levels (children one row below)."""

Note = Callable[[Any], None]
"""Called on the program's thread with one raw step record; it must stay cheap."""


@dataclass(frozen=True, slots=True)
class Event:
    """One line of the timeline, described from a raw step record.

    Attributes:
        category: ``enter``, ``exit``, ``event``, ``action`` or ``edit``.
        label: what kind of enter or exit (``Init``, ``Sibling``, ``Activated``...), the
            event's or action's type.
        state: the state concerned (its name in the machine's view), or ``""``.
        depth: its depth on the stack, or -1 when depth means nothing (flags, events).
        detail: free text: a cause, an action's parameters.
    """

    category: Category
    label: str
    state: str
    depth: int = -1
    detail: str = ""


@dataclass(frozen=True, slots=True)
class DiagramView:
    """Draw the machine as its structure's diagram (laid out as ``statetree plot`` does).

    Attributes:
        structure: what to draw.
        layout: the layout shown first: ``nested``, a statechart with each state's children
            inside it (charts), or ``tree``, the HSM book's levels (class-based machines).
            The page offers the other one too where the structure allows it (a structure
            whose states are reused in several places has only the book's).
    """

    structure: Structure
    layout: Layout = "tree"


@dataclass(frozen=True, slots=True)
class Flag:
    """One state of a flags view and the rules that tie it to the others."""

    name: str
    requires: tuple[str, ...] = ()
    terminates: tuple[str, ...] = ()
    blocked_by: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FlagsView:
    """Draw the machine as a table of flags, one per state, in bit order."""

    flags: tuple[Flag, ...]


@dataclass(frozen=True, slots=True)
class PopulationView(DiagramView):
    """Draw many agents running one structure: its diagram with the number of agents in
    each state, and those numbers over time (see :class:`CountsAgents`)."""


MachineView = DiagramView | FlagsView
"""How a machine is drawn on the page (a :class:`PopulationView` is a diagram)."""

Sample = tuple[int, tuple[int, ...]]
"""How many agents were in each state (in the structure's order) at one frame, numbered
from the frame the page began watching."""


@dataclass(frozen=True, slots=True)
class Explained:
    """Whether a state could become active now and, if not, every reason."""

    state: str
    possible: bool
    text: str
    reasons: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PacketField:
    """One field of a decoded packet.

    Attributes:
        name: what the field holds.
        start: its first bit, counted in stream order (see ``DecodedPacket.bit_order``).
        width: how many bits it takes.
        value: the decoded value, as text.
    """

    name: str
    start: int
    width: int
    value: str


@dataclass(frozen=True, slots=True)
class DecodedPacket:
    """The bytes of a serialised update and what they mean.

    Attributes:
        data: the bytes as sent.
        fields: the fields in stream order.
        bit_order: ``"lsb"`` when stream bit ``k`` is ``data[k // 8] >> (k % 8)``,
            ``"msb"`` when it is ``data[k // 8] >> (7 - k % 8)``.
        summary: the decoded configuration in words.
        error: why the bytes do not decode (then ``fields`` may be partial).
    """

    data: bytes
    fields: tuple[PacketField, ...]
    bit_order: Literal["lsb", "msb"] = "lsb"
    summary: str = ""
    error: str = ""


@runtime_checkable
class WatchedMachine(Protocol):
    """A machine as the inspector sees it.

    ``attach`` and ``detach`` are called only while a page watches the machine, so a
    machine nobody watches carries no listener. ``active`` and ``poll`` are called from the
    inspector's thread at its fixed rate, and must only read the machine.
    """

    @property
    def name(self) -> str:
        """A label for the page (the inspector makes ids unique from it)."""

    @property
    def kind(self) -> str:
        """The kind of machine, shown on the page: ``state-machine``, ``bitmask``..."""

    def view(self) -> MachineView:
        """How to draw the machine (called once per page that shows it)."""

    def active(self) -> tuple[str, ...]:
        """The names of the active states, outermost first."""

    def attach(self, note: Note) -> None:
        """Start calling ``note`` with a raw record for each step of the machine."""

    def detach(self) -> None:
        """Stop calling the ``note`` given to :meth:`attach`."""

    def poll(self) -> None:
        """Report steps found by looking at the machine (for machines without listeners)."""

    def describe(self, raw: Any) -> Event:
        """The timeline line of a raw record given to ``note``."""


@runtime_checkable
class Explains(Protocol):
    """A machine that can say why a state is not active (bitmask machines)."""

    def explain(self, state: str) -> Explained:
        """Explain ``state``; raises a :class:`~statetree.StateTreeError` if it is unknown."""


@runtime_checkable
class DecodesPackets(Protocol):
    """A machine whose serialised updates can be decoded field by field."""

    def decode_packet(self, data: bytes) -> DecodedPacket:
        """Decode ``data`` without changing the machine (errors go in ``error``)."""


@dataclass(frozen=True, slots=True)
class Trigger:
    """An event the page may send to a machine: one button of its event palette.

    Attributes:
        type: the trigger type, e.g. ``input``.
        name: the event's name, e.g. ``Jump``.
        level: a level trigger, held and released rather than sent.
    """

    type: str
    name: str
    level: bool = False


@runtime_checkable
class ReceivesEvents(Protocol):
    """A machine the page may send events to (charts)."""

    def palette(self) -> tuple[Trigger, ...]:
        """The events the machine responds to, in the order the page lists them."""

    def send_event(self, trigger: str, name: str, mode: str) -> None:
        """Send the event (``mode`` ``send``), or hold or release a level trigger.

        Called on the program's thread, between two frames.

        Raises:
            StateTreeError: the machine has no such trigger type, or refuses the event.
        """


Value = tuple[str, str, object]
"""One value shown for a machine: its group (``fields``, ``state values``...), its name, and
its value: an object that cannot change (a number, a string, a frozen dataclass...) or its
text, which the page gets when it asks."""


@runtime_checkable
class ShowsValues(Protocol):
    """A machine whose owner's values the page shows, as they were at each frame."""

    def values(self) -> tuple[Value, ...]:
        """The values now; called on the program's thread after a frame that changed the
        machine, so it must be cheap and only read."""


@runtime_checkable
class CountsAgents(Protocol):
    """Many agents run as one machine (a chart batch): the page charts their numbers.

    :meth:`WatchedMachine.poll` takes the samples (on the program's thread, between two
    frames, for a program that calls ``Inspector.frame()``).
    """

    def samples(self, since: int) -> tuple[Sample, ...]:
        """The samples kept that were taken after frame ``since`` (-1: all), oldest
        first."""


@runtime_checkable
class RunsLater(Protocol):
    """A machine that can run a change on the thread that drives it, at a safe point.

    The inspector uses it for programs that do not call ``Inspector.frame()``.
    """

    def defer(self, operation: Callable[[], None]) -> None:
        """Call ``operation`` (which never raises) on the machine's thread, between two of
        its steps."""


@dataclass(frozen=True, slots=True)
class PreparedEdit:
    """An edit checked by the loader, ready to be saved and reloaded.

    Attributes:
        text: the file's new text.
        diff: the change as a unified diff of the file.
        definition: what the loader made of the new text (a chart, for charts).
        base: the file's text the edit was made on; the edit is saved only if the file
            still holds it.
        step: ``edit``, or ``undo`` / ``redo`` when the edit goes back or forth in the
            history of the page's edits.
        edit: the page's edit, when it can be made again on a newer text (an operation on
            the chart, not a replacement of its text, an undo or a redo).
    """

    text: str
    diff: str
    definition: Any
    base: str = ""
    step: Literal["edit", "undo", "redo"] = "edit"
    edit: Mapping[str, Any] | None = None


@runtime_checkable
class EditsSource(Protocol):
    """A machine loaded from a file that the page may edit, save and hot-reload.

    Editing has two steps: :meth:`prepare` checks an edit on any thread without changing
    anything; :meth:`commit` reloads the machine and saves the file, on the program's
    thread (the inspector arranges that).
    """

    def source(self) -> dict[str, Any]:
        """The file's text and definition as JSON-ready data, with its name and format."""

    def prepare(self, edit: dict[str, Any]) -> PreparedEdit:
        """Apply ``edit`` to the file's text and load the result, changing nothing.

        ``{"op": "undo"}`` and ``{"op": "redo"}`` go back and forth in the history of the
        edits made through :meth:`commit`.

        Raises:
            StateTreeError: the edit is malformed or names no state (InspectError), or
                the edited file does not load (the loader's own error).
        """

    def commit(self, prepared: PreparedEdit) -> dict[str, Any]:
        """Reload the running machine with the edit, then save the file.

        Returns:
            JSON-ready data: the diff saved and what the reload kept, exited and entered.

        Raises:
            StateTreeError: the machine refused the new definition; nothing was saved.
        """
