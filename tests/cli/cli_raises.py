"""A module that fails while it is imported."""

raise RuntimeError("no database")
