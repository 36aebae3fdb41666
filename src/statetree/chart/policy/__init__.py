"""The chart policies, each defined once: one module per policy, one :class:`PolicyDef` in it.

A definition holds everything its policy means: its name, its load-time rules, the
structure edges to its children, the parts of its children it reads, the child it holds
when it chooses none, and the functions that run it. The parser, the validator, the
structure builder, the parts rule (:mod:`statetree.chart.parts`), the compiler, the JSON
Schema (:mod:`statetree.chart.json_schema`) and the inspector's editor (sent them by the
server) read the definitions. The chart batch, the wire codecs and the plots derive from the
machine and its structure, so they need nothing from a policy.

Adding a policy is adding a module here, named for it, defining its ``DEFINITION``: every
module of this package but :mod:`~statetree.chart.policy.definition` is one policy (see the
contributors' guide in the docs).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Mapping
from types import MappingProxyType

from statetree.chart.model import DEFAULT_POLICY, StateDef
from statetree.chart.policy.definition import GROUND_LABEL, PARTS, Entry, Part, PolicyDef

__all__ = [
    "DEFINITIONS",
    "GROUND_LABEL",
    "PARTS",
    "Entry",
    "Part",
    "PolicyDef",
    "definition",
    "policy_names",
    "resumes",
    "runs_regions",
]


def _discover() -> dict[str, PolicyDef]:
    """The definition of every policy module of this package, by name: the default policy
    first, then in the order of their names."""
    found: dict[str, PolicyDef] = {}
    for module in pkgutil.iter_modules(__path__):
        if module.name == "definition":
            continue
        defined = getattr(importlib.import_module(f"{__name__}.{module.name}"), "DEFINITION", None)
        if not isinstance(defined, PolicyDef) or defined.policy != module.name:
            raise ImportError(
                f"the policy module {__name__}.{module.name} must define DEFINITION, a "
                f"PolicyDef named {module.name!r} as the module is"
            )
        found[module.name] = defined
    if DEFAULT_POLICY not in found:  # a frozen program that left the modules out
        raise ImportError(
            f"{__name__} holds no policy module: a frozen program must take every module of "
            "it (statetree's PyInstaller hook does; with another tool, include the package "
            f"{__name__} whole)"
        )
    order = sorted(found, key=lambda name: (name != DEFAULT_POLICY, name))
    return {name: found[name] for name in order}


DEFINITIONS: Mapping[str, PolicyDef] = MappingProxyType(_discover())
"""Every policy's definition by name: the default policy first, then by name."""


def definition(policy: str) -> PolicyDef:
    """The definition of the policy named ``policy``."""
    return DEFINITIONS[policy]


def policy_names() -> str:
    """Every policy's name, quoted, for messages: ``'explicit', 'concurrent', ...``."""
    return ", ".join(repr(name) for name in DEFINITIONS)


def resumes(state: StateDef) -> bool:
    """Whether ``state`` enters the child its history recorded (its policy's entry is the
    first child): priority and concurrent states choose anew and keep no history."""
    return state.policy is not None and DEFINITIONS[state.policy].entry is Entry.FIRST


def runs_regions(state: StateDef) -> bool:
    """Whether ``state`` runs its children as regions, all active at once."""
    return state.policy is not None and DEFINITIONS[state.policy].regions
