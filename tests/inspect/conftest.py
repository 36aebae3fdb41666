"""Fixtures of the inspector tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium (the system's) for every browser test."""
    from inspector_screenshots import chromium

    with chromium() as context:
        yield context
