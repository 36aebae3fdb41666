"""A chart file edited from the page: checked by the loader, saved with a readable diff.

Structured edits change the document the loader read: YAML through ``ruamel.yaml``'s
round-trip tree, so comments and layout are kept (see :mod:`~statetree.inspect.yaml_edit`);
JSON as data, written back indented. TOML charts can be edited as text only (there is no
TOML writer in the standard library). Every edit is loaded before anything is saved, so a
bad edit fails with the loader's own error, naming the file, line and place, and leaves the
file as it was. The file is saved with its own line ends, byte order mark and mode, through
its link if it is one, and at once (see :mod:`~statetree.inspect.text_file`).
"""

from __future__ import annotations

import copy
import difflib
import importlib
import json
from pathlib import Path
from typing import Any, Literal

from statetree.chart import DEFAULT_REGISTRY, Registry, format_of, loads, read_document, to_data
from statetree.chart.document import Document
from statetree.chart.loading import Format, read_chart_file
from statetree.chart.model import DEFAULT_POLICY, Chart
from statetree.chart.parts import placements
from statetree.chart.policy import DEFINITIONS
from statetree.inspect.adapters import InspectError, PreparedEdit
from statetree.inspect.chart_ops import OPERATIONS, apply_edit, check_edit
from statetree.inspect.chart_patterns import param_data
from statetree.inspect.text_file import Layout, Staged, stage

__all__ = ["ChartFile", "Unchanged", "registry_data"]

MAX_TEXT = 60000
"""The longest text a ``replace-text`` edit may carry (the message limit is 64 KiB)."""


class Unchanged(InspectError):
    """An edit that would leave the chart file as it is."""


class ChartFile:
    """The file a chart was loaded from.

    Args:
        path: the chart file.
        registry: the host's registry, to check trigger and action types; without it
            only the chart's structure is checked (the running machine still refuses
            actions it has no handler for).

    Raises:
        InspectError: ``path`` is not a chart file (by its extension).
    """

    def __init__(self, path: str | Path, registry: Registry | None = None) -> None:
        self.path = Path(path)
        found = format_of(self.path)
        if found is None:
            raise InspectError(f"{str(self.path)!r} is not a chart file (.yaml, .toml, .json)")
        self.format: Format = found
        self.registry = registry

    def read(self) -> str:
        """The file's text, read as the chart loader reads it.

        Raises:
            ChartError: the loader's error: the file cannot be read (it vanished), is too
                large, or is not UTF-8 (naming the line of the first bad byte).
        """
        return read_chart_file(self.path)

    def load(self, text: str) -> Chart:
        """The chart in ``text``, loaded as the file would be.

        Raises:
            ChartError: the loader's error, naming this file.
        """
        registry = self.registry or DEFAULT_REGISTRY
        return loads(
            text, self.format, registry, file=str(self.path), check_types=self.registry is not None
        )

    def source(self) -> dict[str, Any]:
        """The file as the page's editor shows it, with the types its registry knows.

        Raises:
            ChartError: the file cannot be read, or does not load.
        """
        text = self.read()
        chart = self.load(text)
        return {
            "file": self.path.name,
            "format": self.format,
            "text": text,
            "chart": to_data(chart),
            "states": [path for path, _, _ in chart.walk()],
            "parts": {path: list(parts) for path, parts in placements(chart).items()},
            "policies": policies_data(),
            "operations": [*OPERATIONS] if self.format != "toml" else [],
            "registry": registry_data(self.registry or chart.registry, self.registry is not None),
        }

    def prepare(self, edit: dict[str, Any]) -> PreparedEdit:
        """The file as ``edit`` changes it, loaded and diffed; nothing is written.

        Raises:
            InspectError: the edit is malformed (an unknown operation, a field it does not
                take, a value of the wrong type), names no state, or changes nothing.
            ChartError: the file cannot be read, or the edited chart does not load.
        """
        check_edit(edit)
        old = self.read()
        again = None if edit.get("op") == "replace-text" else copy.deepcopy(dict(edit))
        return self.prepare_text(self._edited(old, edit), old, edit=again)

    def prepare_text(
        self,
        new: str,
        old: str,
        step: Literal["edit", "undo", "redo"] = "edit",
        *,
        edit: dict[str, Any] | None = None,
    ) -> PreparedEdit:
        """The file's text ``old`` replaced by ``new`` (by ``edit``, an operation that can
        be made again on a newer text), loaded and diffed.

        Raises:
            Unchanged: ``new`` is ``old``.
            ChartError: ``new`` does not load.
        """
        if new == old:
            raise Unchanged("the edit changes nothing")
        chart = self.load(new)
        name = self.path.name
        diff = difflib.unified_diff(
            old.splitlines(keepends=True),
            new.splitlines(keepends=True),
            fromfile=f"a/{name}",
            tofile=f"b/{name}",
        )
        return PreparedEdit(new, "".join(diff), chart, old, step, edit)

    def _edited(self, old: str, edit: dict[str, Any]) -> str:
        layout = Layout.of(old)
        if edit.get("op") == "replace-text":
            text = edit.get("text")
            if not isinstance(text, str) or len(text) > MAX_TEXT:
                raise InspectError(
                    f"'replace-text' edit needs 'text', at most {MAX_TEXT} characters"
                )
            return layout.dressed(text)
        if self.format == "toml":
            raise InspectError(
                "TOML charts are edited as text only (no TOML writer keeps the file): "
                "use replace-text"
            )
        plain = layout.plain(old)
        document = read_document(plain, self.format, str(self.path))
        if self.format == "json":
            tree = copy.deepcopy(document.data)
            apply_edit(tree, edit, document)
            new = json.dumps(tree, indent=2, ensure_ascii=False) + "\n"
        else:
            new = _edit_yaml(plain, edit, document)
        if _same(read_document(new, self.format, str(self.path)).data, document.data):
            raise Unchanged("the edit changes nothing")
        return layout.dressed(new)

    def save(self, text: str) -> None:
        """Replace the file's text at once (readers never see half a file).

        Raises:
            InspectError: the file cannot be written; it is as it was.
        """
        staged = self.stage(text)
        try:
            staged.commit()
        except OSError as error:
            raise self._cannot_save(error) from None

    def stage(self, text: str) -> Staged:
        """Write ``text`` beside the file, to be put in its place by ``commit()`` (or
        dropped by ``discard()``), with the file's mode, through its link.

        Raises:
            InspectError: the folder cannot be written, or the file is read-only; nothing
                changed.
        """
        try:
            return stage(self.path, text)
        except OSError as error:
            raise self._cannot_save(error) from None

    def _cannot_save(self, error: OSError) -> InspectError:
        reason = error.strerror or str(error)
        return InspectError(f"cannot save {self.path.name}: {reason}; the file is as it was")


def policies_data() -> dict[str, Any]:
    """The policies a state may take, each with what it does, and the default one."""
    return {
        "default": DEFAULT_POLICY,
        "choices": [
            {"name": policy, "summary": found.summary} for policy, found in DEFINITIONS.items()
        ],
    }


def registry_data(registry: Registry, checked: bool) -> dict[str, Any]:
    """The trigger and action types of ``registry``, for the editor's typed controls.

    Args:
        registry: the types.
        checked: whether edits are checked against them (the host gave its registry);
            otherwise actions the registry does not declare are allowed too.
    """
    return {
        "checked": checked,
        "triggers": [{"name": t.name, "level": t.level} for t in registry.triggers.values()],
        "actions": [
            {
                "name": action.name,
                "builtin": action.builtin,
                "params": [param_data(param) for param in action.params],
            }
            for action in registry.actions.values()
        ],
    }


def _edit_yaml(text: str, edit: dict[str, Any], document: Document) -> str:
    """``text`` with ``edit`` made, comments kept (see :mod:`statetree.inspect.yaml_edit`)."""
    # Imported on first use: it needs ruamel.yaml, which only YAML charts need.
    module = importlib.import_module("statetree.inspect.yaml_edit")
    edited: str = module.edit_yaml(text, edit, document)
    return edited


def _same(new: object, old: object) -> bool:
    """Whether two documents hold the same data, value for value (``1`` is not ``true``)."""
    pending = [(new, old)]
    while pending:
        a, b = pending.pop()
        if isinstance(a, dict) and isinstance(b, dict):
            if a.keys() != b.keys():
                return False
            pending.extend((a[key], b[key]) for key in a)
        elif isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b):
                return False
            pending.extend(zip(a, b, strict=True))
        elif type(a) is not type(b) or a != b:
            return False
    return True
