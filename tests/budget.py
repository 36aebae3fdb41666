"""How many examples a property test draws, scaled by the loaded Hypothesis profile.

The suite's profile keeps Hypothesis's default of 100 examples, and a test asking for more
(or fewer) gets what it asks for. ``make test``'s other runs (the Python source, the other
CPythons) load a profile with fewer examples (``conftest.py``), which a number written in
a test's ``@settings`` would override: a test writes ``max_examples=examples(250)`` to be
scaled with the profile.
"""

from __future__ import annotations

from hypothesis import settings

__all__ = ["examples"]

_DEFAULT = 100
"""Hypothesis's own default number of examples, the profile of the whole suite."""


def examples(full: int) -> int:
    """``full`` under the suite's profile; proportionally fewer (at least 10) under a profile
    that draws fewer than Hypothesis's default."""
    return max(min(full, 10), full * settings.default.max_examples // _DEFAULT)
