"""The static structure of a machine: which states exist and which transitions they can make.

Tools (plots, validation, serialisation, the inspector) read a :class:`Structure` instead of
running the machine or guessing. For class-based machines :func:`derive` reads it from the
code; other producers build one directly (``Structure(...)`` or
:meth:`Structure.from_names`).

.. code-block:: python

    from statetree.structure import derive

    structure = derive(CharacterStates.Alive)
    print(structure.validate())

The order of the states inside a parent decides their indexes on the wire and their place
in plots; :func:`children` and :func:`outermost` declare it so that refactoring the code
does not move it (see :mod:`statetree.structure.order`).
"""

from __future__ import annotations

from statetree.structure.declare import TargetRef, Targets, declared_targets, targets
from statetree.structure.derive import derive
from statetree.structure.discover import CONVENTION, find_initial_states
from statetree.structure.model import Edge, Location, StateInfo, Structure, Unresolved
from statetree.structure.order import children, outermost
from statetree.structure.places import OrderProblem, Place, Places
from statetree.structure.record import EdgeRecorder
from statetree.structure.validate import Issue, Severity, ValidationReport, validate

__all__ = [
    "CONVENTION",
    "Edge",
    "EdgeRecorder",
    "Issue",
    "Location",
    "OrderProblem",
    "Place",
    "Places",
    "Severity",
    "StateInfo",
    "Structure",
    "TargetRef",
    "Targets",
    "Unresolved",
    "ValidationReport",
    "children",
    "declared_targets",
    "derive",
    "find_initial_states",
    "outermost",
    "targets",
    "validate",
]
