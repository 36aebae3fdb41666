"""The chart policies, each defined once: one module per policy, one :class:`PolicyDef` in it.

A definition holds everything its policy means: its load-time rules, the structure edges to
its children, the parts of its children it reads, the child it holds when it chooses none,
and the functions of :mod:`statetree.chart.states` that run it. The validator, the
structure builder, the parts rule (:mod:`statetree.chart.parts`), the compiler, the JSON
Schema (checked against these definitions by the tests) and the inspector's editor (sent
them by the server) read the definitions. The chart batch, the wire codecs and the plots
derive from the machine and its structure, so they need nothing from a policy.

Adding a policy: a member of :class:`~statetree.chart.model.Policy`, a module here
defining its ``DEFINITION``, listed below (see the contributors' guide in the docs).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from statetree.chart.model import Policy, StateDef
from statetree.chart.policy import concurrent, explicit, priority, sequential
from statetree.chart.policy.definition import GROUND_LABEL, PARTS, Entry, Part, PolicyDef

__all__ = [
    "DEFINITIONS",
    "GROUND_LABEL",
    "PARTS",
    "Entry",
    "Part",
    "PolicyDef",
    "definition",
    "resumes",
    "runs_regions",
]

DEFINITIONS: Mapping[Policy, PolicyDef] = MappingProxyType(
    {
        found.policy: found
        for found in (
            explicit.DEFINITION,
            sequential.DEFINITION,
            priority.DEFINITION,
            concurrent.DEFINITION,
        )
    }
)
"""Every policy's definition, in the order of :class:`~statetree.chart.model.Policy`."""


def definition(policy: Policy) -> PolicyDef:
    """The definition of ``policy``."""
    return DEFINITIONS[policy]


def resumes(state: StateDef) -> bool:
    """Whether ``state`` enters the child its history recorded (its policy's entry is the
    first child): priority and concurrent states choose anew and keep no history."""
    return state.policy is not None and DEFINITIONS[state.policy].entry is Entry.FIRST


def runs_regions(state: StateDef) -> bool:
    """Whether ``state`` runs its children as regions, all active at once."""
    return state.policy is not None and DEFINITIONS[state.policy].regions
