"""The user guide's code runs: every ```python block of docs/*.md is executed as a test.

Fence convention for docs/*.md:

- ```python: runs. The blocks of one page run in order in one fresh module namespace, so a
  block can use what an earlier block of the same page defined; pages never share names.
- ```python-skip: Python shown on purpose without running it (it configures the process,
  needs a display or a network, or is a fragment). Keep these rare.
- ```text, ```console and any other info string: not run.

A snippet that shows output asserts it (collect trace lines in a list and compare), so a page
whose text drifts from the code fails here. Tracebacks name the page and its line.
"""

from __future__ import annotations

import re
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
EXAMPLES = DOCS.parent / "examples"
PAGES = sorted(DOCS.glob("*.md"))

RUN = "python"
# Labels that look like Python but would silently not run: write ```python or ```python-skip.
AMBIGUOUS = frozenset({"py", "python3", "py3", "Python"})

_OPENING = re.compile(r"^(?P<indent> *)(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`\s]*)")


@dataclass(frozen=True)
class Block:
    """One fenced block of a page."""

    page: Path
    line: int  # 1-based line of the block's first code line in the page
    label: str  # first word of the info string, "" when there is none
    code: str


def read_blocks(page: Path) -> list[Block]:
    """The fenced blocks of ``page``, in order.

    Raises:
        AssertionError: a fence is never closed.
    """
    lines = page.read_text(encoding="utf-8").splitlines()
    blocks: list[Block] = []
    index = 0
    while index < len(lines):
        opening = _OPENING.match(lines[index])
        if opening is None:
            index += 1
            continue
        end = _closing_line(lines, index + 1, opening["fence"])
        assert end is not None, f"{page.name}:{index + 1}: fence never closed"
        width = len(opening["indent"])
        body = [_dedent(line, width) for line in lines[index + 1 : end]]
        blocks.append(Block(page, index + 2, opening["info"], "\n".join(body)))
        index = end + 1
    return blocks


def _closing_line(lines: list[str], start: int, fence: str) -> int | None:
    for number in range(start, len(lines)):
        stripped = lines[number].strip()
        if stripped.startswith(fence) and set(stripped) == {fence[0]}:
            return number
    return None


def _dedent(line: str, width: int) -> str:
    """``line`` without the fence's indentation (a shorter indentation is removed whole)."""
    prefix = line[:width]
    return line[width:] if prefix == " " * width else line.lstrip(" ")


def run_page(page: Path, prepare: Callable[[types.ModuleType], object] | None = None) -> int:
    """Run the ``python`` blocks of ``page`` in order in a fresh module; return how many.

    ``prepare`` is called with the module, registered, before the blocks run."""
    blocks = [block for block in read_blocks(page) if block.label == RUN]
    module = types.ModuleType(f"docs_{page.stem.replace('-', '_')}")
    module.__file__ = str(page)
    # Registered while it runs, so dataclasses and typing can resolve the snippets' names.
    sys.modules[module.__name__] = module
    try:
        if prepare is not None:
            prepare(module)
        for block in blocks:
            # Leading newlines put the code on its page line numbers in tracebacks;
            # dont_inherit keeps this file's `from __future__` imports out of the snippets.
            source = "\n" * (block.line - 1) + block.code
            code = compile(source, str(page), "exec", dont_inherit=True)
            exec(code, module.__dict__)
    finally:
        del sys.modules[module.__name__]
    return len(blocks)


RUNNABLE = [page for page in PAGES if any(block.label == RUN for block in read_blocks(page))]


def test_most_pages_have_runnable_snippets() -> None:
    assert len(RUNNABLE) >= len(PAGES) - 3, sorted(set(PAGES) - set(RUNNABLE))


@pytest.mark.parametrize("page", RUNNABLE, ids=[page.name for page in RUNNABLE])
def test_page_snippets_run(
    page: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Snippets import the examples' packages (``from game import config``): a module of the
    # same name that an earlier test loaded from a file elsewhere (a chart's registry
    # ``examples/charts/game.py``, say) must not stand in for them.
    for name, module in list(sys.modules.items()):
        where = Path(getattr(module, "__file__", None) or DOCS).resolve()
        if "." not in name and (EXAMPLES / name).is_dir() and EXAMPLES / name not in where.parents:
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.syspath_prepend(str(EXAMPLES))
    if "statetree.chart.jax" in page.read_text(encoding="utf-8"):
        pytest.importorskip("jax", reason="the jax extra needs Python 3.11 or later")
    if "ShardedBatch(" not in page.read_text(encoding="utf-8"):
        run_page(page)
        return
    request.getfixturevalue("ray_cluster")  # the session's cluster, on this machine alone
    from ray import cloudpickle

    # The page's handlers reach the shards' actors by value, as a script's functions do.
    run_page(page, cloudpickle.register_pickle_by_value)


@pytest.mark.parametrize("page", PAGES, ids=[page.name for page in PAGES])
def test_python_fences_follow_the_convention(page: Path) -> None:
    misfiled = [
        f"{page.name}:{block.line - 1}: ```{block.label}"
        for block in read_blocks(page)
        if block.label in AMBIGUOUS
    ]
    assert not misfiled, f"use ```python (runs) or ```python-skip (does not run): {misfiled}"


def test_reader_finds_blocks_in_order_and_dedents(tmp_path: Path) -> None:
    page = tmp_path / "sample.md"
    page.write_text(
        "# Sample\n\n```python\nx = 1\n```\n\n"
        "- item\n\n  ```python-skip\n  y = 2\n  ```\n\n"
        "````text\n```python\nnot a block\n```\n````\n",
        encoding="utf-8",
    )
    blocks = read_blocks(page)
    assert [(block.line, block.label, block.code) for block in blocks] == [
        (4, "python", "x = 1"),
        (10, "python-skip", "y = 2"),
        (14, "text", "```python\nnot a block\n```"),
    ]


def test_failing_snippet_reports_its_page_line(tmp_path: Path) -> None:
    page = tmp_path / "broken.md"
    page.write_text("# Broken\n\n```python\nvalue = 1\n\nassert value == 2\n```\n")
    with pytest.raises(AssertionError) as failure:
        run_page(page)
    assert failure.traceback[-1].lineno + 1 == 6  # pytest's line numbers are 0-based
