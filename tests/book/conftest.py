"""Fixtures for the book tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from book_support import output_of


@pytest.fixture
def run_example() -> Callable[[str], list[str]]:
    return output_of
