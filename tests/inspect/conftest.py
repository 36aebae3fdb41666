"""Fixtures of the inspector tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium (the system's) for one module's browser tests.

    Not one for the whole session: Playwright's synchronous API runs an event loop on the
    main thread while it is open, and later tests of other areas call ``asyncio.run``.
    """
    from inspector_screenshots import chromium

    with chromium() as context:
        yield context
