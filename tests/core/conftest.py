"""Fixtures for the core tests."""

from __future__ import annotations

import pytest
from core_support import Recorder


@pytest.fixture
def owner() -> Recorder:
    return Recorder()
