"""The machines a command-line target names: a chart file, class-based machines, bitmask rules."""

from __future__ import annotations

import argparse

from statetree import targets as target
from statetree.bitmask import BitmaskDefinition
from statetree.chart.loading import format_of, load
from statetree.chart.registry import DEFAULT_REGISTRY, Registry
from statetree.chart.structure import chart_structure
from statetree.plot import Plottable
from statetree.structure import Structure, derive
from statetree.targets import LoadError, Machine, existing_file, load_machines

__all__ = [
    "REGISTRY_HELP",
    "add_registry_argument",
    "chart_file_structure",
    "code_machines",
    "is_chart_file",
    "load_plottables",
    "load_registry",
    "plottable",
    "refuse_registry",
]

REGISTRY_HELP = (
    "for a chart file: the host's registry of trigger and action types, as MODULE:NAME "
    "(a dotted module or a .py file; NAME defaults to REGISTRY); without it, what only the "
    "host defines is not checked"
)


def add_registry_argument(parser: argparse.ArgumentParser) -> None:
    """The ``--registry`` option of commands that accept chart files."""
    parser.add_argument("--registry", metavar="MODULE[:NAME]", default=None, help=REGISTRY_HELP)


def is_chart_file(name: str) -> bool:
    """Whether a command-line target names a chart file (by its extension)."""
    return format_of(name) is not None


def load_registry(name: str | None) -> Registry:
    """The registry a ``--registry MODULE:NAME`` option names (the default one for ``None``).

    Raises:
        LoadError: the module does not load or has no such attribute.
    """
    if name is None:
        return DEFAULT_REGISTRY
    module = name.rpartition(":")[0] if ":" in name else name
    if format_of(module) is not None:
        raise LoadError(
            f"--registry takes the Python module (or .py file) that defines the chart's "
            f"Registry (REGISTRY by default), not the chart file {module!r}"
        )
    found = target.load_object(name, "REGISTRY")
    if not isinstance(found, Registry):
        named = name if ":" in name else f"{name}:REGISTRY"
        raise LoadError(f"{named!r} is of type {type(found).__name__}, not a chart Registry")
    return found


def code_machines(name: str, registry: str | None) -> tuple[Machine, ...]:
    """The machines a target that is not a chart file names.

    Raises:
        LoadError: ``--registry`` was given (it only means something for charts), or the
            target does not load.
    """
    refuse_registry(name, registry)
    return load_machines(name)


def refuse_registry(name: str, registry: str | None) -> None:
    """Refuse ``--registry`` for a target that is not a chart file.

    Raises:
        LoadError: ``registry`` was given.
    """
    if registry is not None:
        raise LoadError(f"--registry is for chart files; {name!r} is not one")


def plottable(machine: Machine) -> Plottable:
    """What to draw of a machine: the structure of a class-based one, a bitmask's rules."""
    return machine if isinstance(machine, BitmaskDefinition) else derive(machine)


def load_plottables(
    name: str, registry: str | None = None, *, collapse: bool = False
) -> list[Plottable]:
    """One plottable per machine ``name`` names (a chart file names exactly one; with
    ``collapse``, each use of a pattern in it is one state).

    Raises:
        LoadError: a code target does not load.
        ChartError: a chart file does not load.
    """
    if is_chart_file(name):
        path = str(existing_file(name, "chart file"))
        return [chart_file_structure(path, registry, collapse=collapse)]
    return [plottable(machine) for machine in code_machines(name, registry)]


def chart_file_structure(
    path: str, registry: str | None = None, *, collapse: bool = False
) -> Structure:
    """The structure of the chart file at ``path``, for ``plot`` (with ``collapse``, each
    use of a pattern is one state, see :func:`~statetree.chart.chart_structure`).

    Without a registry, trigger and action types are not checked (the host's registry is
    needed for that), only the chart's structure; ``statetree check`` checks the rest.

    Raises:
        ChartError: the chart does not load.
    """
    chosen = load_registry(registry)
    chart = load(path, chosen, check_types=registry is not None)
    return chart_structure(chart, collapse=collapse)
