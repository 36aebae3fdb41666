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

from typing import TYPE_CHECKING

from statetree.exports import Exports

if TYPE_CHECKING:
    from statetree.structure.declare import TargetRef as TargetRef
    from statetree.structure.declare import Targets as Targets
    from statetree.structure.declare import declared_targets as declared_targets
    from statetree.structure.declare import targets as targets
    from statetree.structure.derivation import derive as derive
    from statetree.structure.discover import CONVENTION as CONVENTION
    from statetree.structure.discover import find_initial_states as find_initial_states
    from statetree.structure.model import Edge as Edge
    from statetree.structure.model import Location as Location
    from statetree.structure.model import StateInfo as StateInfo
    from statetree.structure.model import Structure as Structure
    from statetree.structure.model import Unresolved as Unresolved
    from statetree.structure.order import children as children
    from statetree.structure.order import outermost as outermost
    from statetree.structure.places import OrderProblem as OrderProblem
    from statetree.structure.places import Place as Place
    from statetree.structure.places import Places as Places
    from statetree.structure.record import EdgeRecorder as EdgeRecorder
    from statetree.structure.validation import Issue as Issue
    from statetree.structure.validation import Severity as Severity
    from statetree.structure.validation import ValidationReport as ValidationReport
    from statetree.structure.validation import validate as validate

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

_EXPORTS = Exports(
    __name__,
    {
        "statetree.structure.declare": ("TargetRef", "Targets", "declared_targets", "targets"),
        "statetree.structure.derivation": ("derive",),
        "statetree.structure.discover": ("CONVENTION", "find_initial_states"),
        "statetree.structure.model": ("Edge", "Location", "StateInfo", "Structure", "Unresolved"),
        "statetree.structure.order": ("children", "outermost"),
        "statetree.structure.places": ("OrderProblem", "Place", "Places"),
        "statetree.structure.record": ("EdgeRecorder",),
        "statetree.structure.validation": ("Issue", "Severity", "ValidationReport", "validate"),
    },
)
__getattr__ = _EXPORTS.attribute
__dir__ = _EXPORTS.dir
