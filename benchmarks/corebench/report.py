"""Result tables and targets, and their text form."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Row", "Table", "Target", "format_table", "format_targets"]


@dataclass(frozen=True)
class Row:
    """One contender's number in a table, with an optional note (e.g. how it was taken)."""

    name: str
    value: float
    note: str = ""


@dataclass(frozen=True)
class Table:
    """One measured quantity for every contender.

    Attributes:
        title: the workload.
        what: what one operation (or one instance) is.
        unit: the unit of the values.
        reference: the name of the row every ratio divides by.
        rows: in display order.
    """

    title: str
    what: str
    unit: str
    reference: str
    rows: tuple[Row, ...]

    def value(self, name: str) -> float:
        """The value of the row called ``name``.

        Raises:
            KeyError: no such row.
        """
        for row in self.rows:
            if row.name == name:
                return row.value
        raise KeyError(f"{self.title}: no row {name!r}")

    def ratio(self, name: str) -> float:
        """The row's value divided by the reference row's value."""
        return self.value(name) / self.value(self.reference)


@dataclass(frozen=True)
class Target:
    """A goal the project sets itself, and whether this run met it."""

    goal: str
    measured: str
    met: bool


def format_table(table: Table) -> str:
    """The table as aligned text: contender, value, ratio to the reference, note."""
    width = max(len(row.name) for row in table.rows) + 2
    lines = [
        table.title,
        f"  ({table.what}; ratio = value / {table.reference})",
        f"  {'contender':<{width}}{table.unit:>12}{'ratio':>12}",
    ]
    for row in table.rows:
        ratio = f"{_number(table.ratio(row.name))}x"
        note = f"  {row.note}" if row.note else ""
        lines.append(f"  {row.name:<{width}}{_number(row.value):>12}{ratio:>12}{note}")
    return "\n".join(lines)


def format_targets(targets: list[Target]) -> str:
    """One line per target: PASS or MISS, the goal, the measured value."""
    lines = ["Targets"]
    lines += [
        f"  {'PASS' if target.met else 'MISS'}  {target.goal}: {target.measured}"
        for target in targets
    ]
    return "\n".join(lines)


def _number(value: float) -> str:
    """Three significant digits for small numbers, none wasted on large ones."""
    if value >= 1000:
        return f"{value:,.0f}"
    if value >= 100:
        return f"{value:.1f}"
    if value >= 10:
        return f"{value:.2f}"
    return f"{value:.3f}"
