"""Settings shared by the whole suite."""

from __future__ import annotations

from hypothesis import settings

# Property tests judge behaviour, never speed: a loaded CI machine must not turn a slow
# example into a failure.
settings.register_profile("statetree", deadline=None, print_blob=True)
settings.load_profile("statetree")
