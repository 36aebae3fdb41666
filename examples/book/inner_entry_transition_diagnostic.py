"""The inner entry sample traced at Diagnostic level (book chapter 3, "Inners and Trace Output").

This runs ``inner_entry_transition.py`` unchanged except for the trace level. Diagnostic adds
``HSM_2_`` lines for every state popped: the sibling from ``Alive`` to ``Dead`` first pops
``Stand``, then ``Locomotion``, then ``Alive`` itself, innermost first, each indented by its
depth. Basic leaves these out because they follow from the transitions it shows.
"""

from __future__ import annotations

import runpy
from pathlib import Path

import statetree as st


def main() -> None:
    """Run the inner entry sample with Diagnostic tracing."""
    sample = runpy.run_path(str(Path(__file__).with_name("inner_entry_transition.py")))
    sample["main"](st.TraceLevel.DIAGNOSTIC)


if __name__ == "__main__":
    main()
