"""The adapter of data-driven charts (:class:`~statetree.chart.ChartMachine`).

A chart is watched like a class-based machine (its core machine's step listener), plus the
events it latches and the actions it performs. A chart loaded from a file can also be
edited from the page: the edit is checked by the chart loader, the running machine
hot-reloads it, then the file is saved.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from statetree.chart import (
    ActionCall,
    Chart,
    ChartError,
    ChartMachine,
    Reloaded,
    chart_structure,
    format_of,
)
from statetree.chart import Event as ChartEvent
from statetree.chart.model import triggers_of
from statetree.core.trace import Step, StepKind
from statetree.errors import StateTreeError
from statetree.inspect.adapters import (
    Category,
    DiagramView,
    Event,
    InspectError,
    Note,
    PreparedEdit,
    Trigger,
    Value,
)
from statetree.inspect.chart_file import ChartFile
from statetree.inspect.chart_ops import check_edit
from statetree.inspect.chart_patterns import pattern_source
from statetree.inspect.edit_history import EditHistory
from statetree.structure import Structure

__all__ = ["ChartAdapter", "EditableChartAdapter", "adapt_chart", "palette"]


@dataclass(frozen=True, slots=True)
class _Reload:
    """A timeline record: the chart was edited and reloaded."""

    report: Reloaded


def _names(paths: tuple[str, ...]) -> str:
    return ", ".join(path.rsplit(".", 1)[-1] for path in paths) or "none"


def palette(chart: Chart) -> tuple[Trigger, ...]:
    """Every event ``chart`` responds to: the triggers of its conditions, the timers it
    starts and the events it raises, grouped by trigger type in the registry's order."""
    found: dict[tuple[str, str], None] = {}
    for _, state, _ in chart.walk():
        conditions = (*state.pre, *state.post, *(t.on for t in state.transitions))
        for condition in conditions:
            found.update(((t.type, t.name), None) for t in triggers_of(condition))
        for action in (*state.enter, *state.exit):
            declared = chart.registry.actions.get(action.type)
            if declared is not None and declared.makes is not None:
                found[(declared.makes, str(action.arguments["name"]))] = None
    types = list(chart.registry.triggers)
    ordered = sorted(found, key=lambda key: types.index(key[0]) if key[0] in types else len(types))
    levels = chart.registry.triggers
    return tuple(
        Trigger(kind, name, kind in levels and levels[kind].level) for kind, name in ordered
    )


class ChartAdapter:
    """Watch a :class:`~statetree.chart.ChartMachine`: states, steps, events and actions.

    Args:
        machine: the chart machine.
        name: the label on the page (default: the machine's name).
    """

    kind = "chart"

    def __init__(self, machine: ChartMachine, *, name: str | None = None) -> None:
        self.chart_machine = machine
        self.name = name if name is not None else machine.machine.name
        self._note: Note | None = None
        self._shown: tuple[Chart, Structure] | None = None
        self._palette: tuple[Chart, tuple[Trigger, ...]] | None = None

    def view(self) -> DiagramView:
        """The chart's diagram (a new one after each reload)."""
        chart = self.chart_machine.chart
        if self._shown is None or self._shown[0] is not chart:
            self._shown = (chart, chart_structure(chart, mark_patterns=True))
        return DiagramView(self._shown[1], "nested")

    def active(self) -> tuple[str, ...]:
        """The active states' paths, regions after their host."""
        return self.chart_machine.active

    def attach(self, note: Note) -> None:
        """Listen to the machine's steps, the events it latches and the actions it performs."""
        self.detach()
        chart_machine = self.chart_machine
        chart_machine.machine.add_listener(note)
        chart_machine.add_event_listener(note)
        chart_machine.add_action_listener(note)
        self._note = note

    def detach(self) -> None:
        """Stop listening (the host's own listeners stay)."""
        note = self._note
        if note is None:
            return
        chart_machine = self.chart_machine
        chart_machine.machine.remove_listener(note)
        chart_machine.remove_event_listener(note)
        chart_machine.remove_action_listener(note)
        self._note = None

    @property
    def attached(self) -> bool:
        """Whether the machine is being listened to."""
        return self._note is not None

    def poll(self) -> None:
        """Nothing to poll: steps, events and actions arrive through listeners."""

    def describe(self, raw: Any) -> Event:
        """The timeline line of a step, an event, an action or a reload."""
        if isinstance(raw, Step):
            category: Category = "exit" if raw.kind is StepKind.POP else "enter"
            return Event(category, raw.kind.label, raw.state.__qualname__, raw.depth)
        if isinstance(raw, ChartEvent):
            return Event("event", raw.kind, "", -1, raw.name)
        if isinstance(raw, _Reload):
            report = raw.report
            detail = (
                f"kept {_names(report.kept)}; exited {_names(report.exited)}; "
                f"entered {_names(report.entered)}"
            )
            return Event("edit", "Reloaded", "", -1, detail)
        call: ActionCall = raw
        params = ", ".join(f"{key}={value!r}" for key, value in call.params.items())
        return Event("action", call.type, call.state, -1, f"{call.phase}({params})")

    def palette(self) -> tuple[Trigger, ...]:
        """The events the running chart responds to (see :func:`palette`)."""
        chart = self.chart_machine.chart
        if self._palette is None or self._palette[0] is not chart:
            self._palette = (chart, palette(chart))
        return self._palette[1]

    def send_event(self, trigger: str, name: str, mode: str) -> None:
        """Send ``trigger name`` to the machine, or hold or release that level.

        Raises:
            InspectError: the chart's registry has no such trigger type.
            UsageError: sent for a level trigger, or held for an event.
        """
        chart = self.chart_machine.chart
        if trigger not in chart.registry.triggers:
            known = ", ".join(chart.registry.triggers)
            raise InspectError(
                f"chart {chart.name!r} has no trigger type {trigger!r}; its types: {known}"
            )
        event = ChartEvent(trigger, name)
        {"send": self.chart_machine.send, "hold": self.chart_machine.hold}.get(
            mode, self.chart_machine.release
        )(event)

    def defer(self, operation: Callable[[], None]) -> None:
        """Run ``operation`` at the machine's next send, tick, hold or release."""
        self.chart_machine.defer(operation)

    def values(self) -> tuple[Value, ...]:
        """The chart's clock (seconds) and the level triggers the host holds."""
        runtime = self.chart_machine.machine.owner
        held = sorted(str(event) for event in runtime.held)
        return (("chart", "clock", runtime.clock), *(("held", name, True) for name in held))

    def reloaded(self, report: Reloaded) -> None:
        """Put a reload on the timeline, if the machine is watched."""
        note = self._note
        if note is not None:
            note(_Reload(report))


_STEPS: dict[str, Literal["undo", "redo"]] = {"undo": "undo", "redo": "redo"}
"""The edits that go back or forth in the history, by operation."""


class EditableChartAdapter(ChartAdapter):
    """A chart machine whose chart file the page may edit.

    Args:
        machine: the chart machine running the file's chart.
        file: the file (see :class:`~statetree.inspect.chart_file.ChartFile`).
        name: the label on the page.
    """

    def __init__(self, machine: ChartMachine, file: ChartFile, *, name: str | None = None):
        super().__init__(machine, name=name)
        self.file = file
        self.history = EditHistory()

    def source(self) -> dict[str, Any]:
        """The file's text and chart, for the page's editor, how many edits can be undone
        and redone, and the running chart's patterns and their uses."""
        source = self.file.source()
        patterns = pattern_source(self.chart_machine.chart)
        return {**source, "history": self.history.counts(source["text"]), **patterns}

    def prepare(self, edit: dict[str, Any]) -> PreparedEdit:
        """Check ``edit`` with the chart loader (see :meth:`ChartFile.prepare`); ``undo``
        and ``redo`` go back and forth in the edits saved through :meth:`commit`."""
        step = _STEPS.get(check_edit(edit))
        if step is None:
            return self.file.prepare(edit)
        current = self.file.read()
        target = self.history.target(step, current)
        return self.file.prepare_text(target, current, step)

    def commit(self, prepared: PreparedEdit) -> dict[str, Any]:
        """Hot-reload the machine with the edited chart, then save the file.

        An edit checked before the edits saved here since (two sent back to back) is made
        again on the file as they left it.

        Raises:
            InspectError: the file, or the history of an undo or redo, changed since the
                edit was checked (by another program, or the edit no longer applies);
                nothing changed.
                Also when the file cannot be written (nothing changed then), or, rarely,
                cannot be put in place once the machine was reloaded.
            ChartError, HandlerError: the machine refused the chart; nothing was saved.
            InspectError: a handler raised while the machine reloaded; nothing was saved.
        """
        current = self.file.read()
        if current != prepared.base:
            prepared = self._again(prepared, current)
        self.history.check(prepared)
        # Written beside the file first: a folder that cannot be written changes nothing,
        # and the machine refusing the chart leaves no file behind.
        staged = self.file.stage(prepared.text)
        try:
            report = self.chart_machine.reload(prepared.definition)
        except StateTreeError:
            staged.discard()
            raise
        except Exception as error:  # the program's handler: its error, not the inspector's
            staged.discard()
            raise InspectError(
                f"the machine did not take the edit: a handler raised {type(error).__name__}: "
                f"{error} while it reloaded (the machine is as it was; nothing was saved)"
            ) from error
        except BaseException:
            staged.discard()
            raise
        try:
            staged.commit()
        except OSError as error:  # rare: the file's folder was writable a moment ago
            raise InspectError(
                f"the machine runs the edit, but {self.file.path.name} could not be saved: "
                f"{error.strerror or error}"
            ) from None
        self.history.saved(prepared)
        self.reloaded(report)
        return {
            "diff": prepared.diff,
            "step": prepared.step,
            "kept": list(report.kept),
            "exited": list(report.exited),
            "entered": list(report.entered),
        }

    def _again(self, prepared: PreparedEdit, current: str) -> PreparedEdit:
        """``prepared``'s edit made again on the file's text ``current``, when only edits
        saved here changed it since the edit was checked.

        Raises:
            InspectError: something else changed it, the edit is an undo, a redo or a new
                text, or it no longer applies (a state it names was renamed, say).
        """
        here = self.history.made_here(prepared.base, current)
        if here and prepared.step != "edit":  # two undos (or redos) sent one after the other
            raise InspectError(
                f"an edit made here was saved while this {prepared.step} was checked: "
                f"nothing was saved, {prepared.step} again if it is still wanted"
            )
        if prepared.edit is None or not here:
            raise InspectError(
                "the chart file changed while this edit was checked: nothing was saved, "
                "make the edit again"
            )
        try:
            return self.file.prepare(dict(prepared.edit))
        except (InspectError, ChartError) as error:
            raise InspectError(
                f"the edit no longer applies after the edits saved before it ({error}): "
                "nothing was saved"
            ) from None


def adapt_chart(machine: object) -> ChartAdapter | None:
    """The adapter of a chart machine (editable when its chart came from a file)."""
    if not isinstance(machine, ChartMachine):
        return None
    origin = Path(machine.chart.origin.file)
    if format_of(origin) is not None and origin.is_file():
        return EditableChartAdapter(machine, ChartFile(origin, machine.chart.registry))
    return ChartAdapter(machine)
