"""A module without states."""

VALUE = 1
