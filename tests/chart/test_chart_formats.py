"""One chart, three formats: YAML, TOML and JSON load to the same model; the schema agrees."""

from __future__ import annotations

import io
import subprocess
import sys

import jsonschema
import pytest
from chart_samples import CHARTS, GAME, example
from ruamel.yaml import YAML

from statetree.chart import (
    Chart,
    ChartError,
    Registry,
    dump_json,
    dump_yaml,
    format_of,
    from_data,
    load,
    loads,
    read_document,
    schema,
    to_data,
)
from statetree.chart.locate import locate_json, locate_toml
from statetree.errors import UsageError

CHART_FILES = sorted(path for path in CHARTS.iterdir() if format_of(path) is not None)


def test_the_three_formats_give_the_same_chart() -> None:
    yaml, toml, json = (example(f"basic_attack.{ext}") for ext in ("yaml", "toml", "json"))
    assert yaml == toml == json
    assert yaml.origin.file.endswith("basic_attack.yaml")


@pytest.mark.parametrize("path", CHART_FILES, ids=[path.name for path in CHART_FILES])
def test_every_example_chart_follows_the_schema(path: object) -> None:
    assert format_of(str(path)) is not None
    text = CHARTS.joinpath(str(path)).read_text()
    document = read_document(text, format_of(str(path)) or "yaml")
    jsonschema.validate(document.data, schema())


def test_the_schema_is_a_valid_json_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(schema())


@pytest.mark.parametrize(
    "data",
    [
        {"name": "X"},
        {"name": "X", "root": {"name": "R", "colour": "red"}},
        {"name": "X", "root": {"name": "R", "policy": "random"}},
        {"name": "X", "root": {"name": "R", "states": [{"name": "A", "pre": {"all": []}}]}},
        {"name": "X", "root": {"name": "R", "enter": [{"a": 1, "b": 2}]}},
        {"name": "X", "root": {"name": "R", "transitions": [{"on": "Go"}]}},
        {"name": "1X", "root": {"name": "R"}},
    ],
)
def test_what_the_schema_rejects_the_loader_rejects(data: dict[str, object]) -> None:
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, schema())
    with pytest.raises(ChartError):
        from_data(data, GAME)


@pytest.mark.parametrize("name", ["basic_attack.yaml", "combo_attack.yaml", "platformer.yaml"])
def test_dumped_charts_load_back_equal(name: str) -> None:
    registry = GAME if name != "platformer.yaml" else _platformer_registry()
    chart = example(name) if name != "platformer.yaml" else _platformer()
    assert from_data(to_data(chart), registry) == chart
    assert loads(dump_json(chart), "json", registry) == chart
    assert loads(dump_yaml(chart), "yaml", registry) == chart
    jsonschema.validate(to_data(chart), schema())


def _platformer_registry() -> Registry:
    from chart_platformer import REGISTRY

    return REGISTRY


def _platformer() -> Chart:
    return load(CHARTS / "platformer.yaml", _platformer_registry())


def test_the_yaml_reader_keeps_comments_for_editors() -> None:
    document = read_document("# top\nname: X  # the name\nroot: {name: R}\n", "yaml")
    assert document.data == {"name": "X", "root": {"name": "R"}}
    tree = document.tree
    assert isinstance(tree, dict)
    tree["name"] = "Y"
    out = io.StringIO()
    YAML(typ="rt").dump(tree, out)
    assert out.getvalue() == "# top\nname: Y  # the name\nroot: {name: R}\n"


def test_importing_statetree_and_charts_needs_no_yaml_library() -> None:
    code = (
        "import sys, statetree.chart; "
        'statetree.chart.loads(\'{"name": "X", "root": {"name": "R"}}\', \'json\'); '
        "assert not [m for m in sys.modules if m.startswith('ruamel')], 'ruamel imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    # ``import statetree`` loads no extra: no YAML, NumPy, server or Graphviz library.
    extras = ("ruamel", "numpy", "starlette", "uvicorn", "websockets", "graphviz")
    plain = (
        "import sys, statetree; "
        f"assert not [m for m in sys.modules if m.split('.')[0] in {extras!r}], 'extra imported'"
    )
    subprocess.run([sys.executable, "-c", plain], check=True)


def test_json_lines_follow_keys_and_items() -> None:
    text = '{\n  "a": [\n    1,\n    {"b": "x\\"y"}\n  ],\n  "c": {"d": true}\n}'
    assert locate_json(text).lines == {
        (): 1,
        ("a",): 2,
        ("a", 0): 3,
        ("a", 1): 4,
        ("a", 1, "b"): 4,
        ("c",): 6,
        ("c", "d"): 6,
    }


def test_toml_lines_follow_tables_arrays_of_tables_and_dotted_keys() -> None:
    text = (
        'title = "t"  # comment\n'
        "[root]\n"
        "name = 'R'\n"
        "[[root.states]]\n"
        'name = """multi\nline"""\n'
        "[[root.states.states]]\n"
        "inner.key = 1\n"
        "[[root.states]]\n"
        "list = [\n"
        "  {a = 1},\n"
        "  [2, 3],\n"
        "]\n"
    )
    lines = locate_toml(text).lines
    assert lines[("title",)] == 1
    assert lines[("root", "name")] == 3
    assert lines[("root", "states", 0)] == 4
    assert lines[("root", "states", 0, "name")] == 5
    assert lines[("root", "states", 0, "states", 0)] == 7  # after a two-line string
    assert lines[("root", "states", 0, "states", 0, "inner", "key")] == 8
    assert lines[("root", "states", 1)] == 9
    assert lines[("root", "states", 1, "list", 0, "a")] == 11
    assert lines[("root", "states", 1, "list", 1)] == 12


@pytest.mark.parametrize("name", ["yml", "YAML", "xml", None])
def test_a_format_name_that_is_none_of_the_three_is_a_usage_error(name: object) -> None:
    with pytest.raises(UsageError) as refused:
        loads("name: X\nroot: {name: R}\n", name)  # type: ignore[arg-type]

    assert str(refused.value) == (
        f"{name!r} is not a chart format: give one of 'yaml', 'toml', 'json'"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b"name: X\n", "a chart's text is a str, got bytes: decode the bytes first"),
        (None, "a chart's text is a str, got NoneType"),
    ],
)
def test_a_text_that_is_no_string_is_a_usage_error(text: object, message: str) -> None:
    with pytest.raises(UsageError) as refused:
        loads(text, "yaml")  # type: ignore[arg-type]

    assert str(refused.value).startswith(message)
