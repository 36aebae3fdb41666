"""The structures a command-line target names: a chart file, or class-based machines."""

from __future__ import annotations

import argparse

from statetree import targets as target
from statetree.chart.load import format_of, load
from statetree.chart.registry import DEFAULT_REGISTRY, Registry
from statetree.chart.structure import chart_structure
from statetree.structure import Structure, derive
from statetree.targets import load_initial_states

__all__ = [
    "REGISTRY_HELP",
    "add_registry_argument",
    "chart_file_structure",
    "is_chart_file",
    "load_registry",
    "load_structures",
]

REGISTRY_HELP = (
    "for a chart file: the host's registry of trigger and action types, as MODULE:NAME "
    "(a dotted module or a .py file; NAME defaults to REGISTRY); without it only the "
    "chart's structure is checked"
)


def add_registry_argument(parser: argparse.ArgumentParser) -> None:
    """The ``--registry`` option of commands that accept chart files."""
    parser.add_argument("--registry", metavar="MODULE[:NAME]", default=None, help=REGISTRY_HELP)


def load_structures(target: str, registry: str | None = None) -> list[Structure]:
    """One structure per machine ``target`` names (a chart file names exactly one).

    Raises:
        LoadError: a class-based target does not load.
        ChartError: a chart file does not load.
    """
    if is_chart_file(target):
        return [chart_file_structure(target, registry)]
    return [derive(initial) for initial in load_initial_states(target)]


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
    found = target.load_object(name, "REGISTRY")
    if not isinstance(found, Registry):
        raise target.LoadError(f"{name!r} is a {type(found).__name__}, not a chart Registry")
    return found


def chart_file_structure(path: str, registry: str | None = None) -> Structure:
    """The structure of the chart file at ``path``, for ``plot`` and ``check``.

    Without a registry, trigger and action types are not checked (the host's registry is
    needed for that), only the chart's structure.

    Raises:
        ChartError: the chart does not load.
    """
    chosen = load_registry(registry)
    return chart_structure(load(path, chosen, check_types=registry is not None))
