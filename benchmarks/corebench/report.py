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
        references: the names of the rows the ratios divide by, one ratio column each.
        rows: in display order.
    """

    title: str
    what: str
    unit: str
    references: tuple[str, ...]
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

    def ratio(self, name: str, reference: str | None = None) -> float:
        """The row's value divided by ``reference``'s (by default the first reference's)."""
        return self.value(name) / self.value(reference or self.references[0])


@dataclass(frozen=True)
class Target:
    """A goal the project sets itself, and whether this run met it."""

    goal: str
    measured: str
    met: bool


def format_table(table: Table) -> str:
    """The table as aligned text: contender, value, a ratio per reference, note."""
    width = max(len(row.name) for row in table.rows) + 2
    legend = ", ".join(f"[{i}] {name}" for i, name in enumerate(table.references, 1))
    headers = "".join(f"{f'ratio [{i}]':>12}" for i in range(1, len(table.references) + 1))
    lines = [
        table.title,
        f"  ({table.what}; ratio = value / {legend})",
        f"  {'contender':<{width}}{table.unit:>12}{headers}",
    ]
    for row in table.rows:
        ratios = "".join(
            f"{_number(table.ratio(row.name, reference)) + 'x':>12}"
            for reference in table.references
        )
        note = f"  {row.note}" if row.note else ""
        lines.append(f"  {row.name:<{width}}{_number(row.value):>12}{ratios}{note}")
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
