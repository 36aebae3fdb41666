"""Loads corpus charts in a process of its own and prints each outcome, one line per file.

The corpus test runs this as a script, so a file that made the loader hang (or crash the
interpreter) fails that file's test instead of the whole run. Run it yourself with
``--regenerate`` to record the outcomes of new corpus files in ``corpus/expected.txt``
(review the diff: it is the specification).
"""

from __future__ import annotations

import sys
from pathlib import Path

CORPUS = Path(__file__).resolve().parent / "corpus"
EXPECTED = CORPUS / "expected.txt"
STARTED = "started "


def _generated(name: str) -> tuple[str, str]:
    """The text and format of a chart of the generated group, at the size limit or above."""
    from statetree.chart.text import MAX_CHART_SIZE

    shape = name.partition("/")[2]
    if shape == "over-the-limit.yaml":
        return "name: X\n" + "#" * (4 * MAX_CHART_SIZE), "yaml"
    if shape == "problems-at-the-limit.yaml":
        item = "    - {name: S%d, transitions: [{on: {input: Go}, to: Nowhere}]}\n"
        count = (MAX_CHART_SIZE - 200) // len(item % 99999)
        states = "".join(item % i for i in range(count))
        return f"name: X\nroot:\n  name: R\n  states:\n{states}", "yaml"
    if shape == "siblings-at-the-limit.json":
        item = '{"name": "S%d", "transitions": [{"on": {"input": "Go"}, "to": "S0"}]},\n'
        count = (MAX_CHART_SIZE - 200) // len(item % 99999)
        body = "".join(item % i for i in range(count)) + '{"name": "S0"}'
        return '{"name": "X", "root": {"name": "R", "states": [\n' + body + "]}}", "json"
    assert shape == "list-at-the-limit.toml", shape
    return 'name = "X"\nroot = [' + "0," * ((MAX_CHART_SIZE - 40) // 2) + "]\n", "toml"


def _load(name: str) -> str:
    """Load the corpus chart ``name``; returns the file name its errors must carry."""
    from statetree.chart import load, loads

    if name.startswith("generated/"):
        text, format = _generated(name)
        loads(text, format, file=name)  # type: ignore[arg-type]
        return name
    load(CORPUS / name)
    return str(CORPUS / name)


# After these, a message quotes the parser (json, tomllib or tomli, ruamel.yaml), whose words
# and even the line it blames change between Python and library versions: the library's
# decision is the prefix (refused as that format, in that file, at a line).
PARSER_WORDS = ("not valid JSON: ", "not valid TOML: ", "not valid YAML: ")


def _without_parser_words(message: str) -> str:
    """``message`` without the parser's own words, and with the list of policies (read from
    their definitions) named, so that a new policy changes no recording."""
    from statetree.chart.policy import DEFINITIONS

    for prefix in PARSER_WORDS:
        if message.startswith(prefix):
            return f"{prefix}(the parser's words)"
    return message.replace(", ".join(DEFINITIONS), "(the policies)")


def decided(outcome: str) -> str:
    """``outcome`` without what the parser decides: its line, for a syntax error."""
    name, line, message = outcome.split(" | ", 2)
    if message.startswith(PARSER_WORDS):
        line = "(the parser's line)"
    return f"{name} | {line} | {message}"


def outcome(name: str) -> str:
    """``name | line | message`` for a corpus file refused with a ``ChartError``."""
    from statetree.chart import ChartError

    path = str(CORPUS / name) if not name.startswith("generated/") else name
    try:
        _load(name)
    except ChartError as error:
        if error.file != path:
            return f"{name} | wrong file | {error.file}"
        return f"{name} | {error.line} | {_without_parser_words(error.message)}"
    except Exception as error:  # the bug the corpus guards against: say what escaped
        return f"{name} | raw | {type(error).__name__}: {error}"
    return f"{name} | loaded | (a corpus chart must be refused)"


GENERATED = (
    "generated/list-at-the-limit.toml",
    "generated/over-the-limit.yaml",
    "generated/problems-at-the-limit.yaml",
    "generated/siblings-at-the-limit.json",
)
"""Charts made in memory, at the size limit or beyond, rather than kept as files."""


def corpus_files() -> list[str]:
    """The names of the corpus charts: the files of ``corpus/`` and the generated ones."""
    files = (str(path.relative_to(CORPUS)) for path in CORPUS.glob("*/*") if path.is_file())
    return sorted((*files, *GENERATED))


def main(names: list[str]) -> None:
    """Print ``started NAME`` then the outcome of each file, flushing each line."""
    for name in names:
        print(f"{STARTED}{name}", flush=True)
        print(outcome(name).replace("\n", "\\n"), flush=True)


if __name__ == "__main__":
    if sys.argv[1:] == ["--regenerate"]:
        lines = [outcome(name).replace("\n", "\\n") for name in corpus_files()]
        EXPECTED.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    else:
        main(sys.argv[1:])
