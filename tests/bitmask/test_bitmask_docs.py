"""The code in docs/bitmask.md's "Declaring states" section runs as written."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "bitmask.md"


def declaration_blocks() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Declaring states", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)


def test_the_declaration_examples_run_and_agree() -> None:
    blocks = declaration_blocks()
    assert len(blocks) == 2
    namespace: dict[str, object] = {}
    exec(compile(blocks[0], str(DOC), "exec"), namespace)
    from_classes = namespace["PLAYER_STATES"]
    exec(compile(blocks[1], str(DOC), "exec"), namespace)
    from_data = namespace["PLAYER_STATES"]
    for attr in (
        "names",
        "requires_all",
        "terminates_all",
        "blocked_by",
        "retriggerable",
        "predictable",
    ):
        assert getattr(from_classes, attr) == getattr(from_data, attr)
    assert from_classes.checked == (False, False, False, False, True, True, False)
    assert from_data.checked == (False, False, False, False, True, False, False)
