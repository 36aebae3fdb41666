"""Helpers for the book tests: run an example and capture what it prints."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import sys
from pathlib import Path

BOOK = Path(__file__).resolve().parents[1] / "examples" / "book"


def load_example(name: str) -> object:
    """Import ``examples/book/<name>.py`` as a fresh module."""
    path = BOOK / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"book_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def output_of(name: str) -> list[str]:
    """The lines ``examples/book/<name>.py`` prints from its ``main()``."""
    module = load_example(name)
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        module.main()  # type: ignore[attr-defined]
    return buffer.getvalue().splitlines()


def book_lines(text: str) -> list[str]:
    """The book's printed output, as lines, with C++ names written as Python qualnames."""
    lines = [line.strip() for line in text.strip().splitlines()]
    return [line.replace("struct ", "").replace("::", ".") for line in lines]
