"""help() shows the same docstrings and signatures on the compiled core as on its source.

Every class, function, method and property of the compiled modules with a docstring in its
source must show that docstring (``inspect.getdoc``, which ``help()`` prints) and the
source's parameters. The suite runs on the compiled core and on the source, so the two agree.
"""

from __future__ import annotations

import ast
import inspect
import pydoc
from importlib import import_module
from pathlib import Path
from typing import Any

import pytest

import statetree as st
import statetree.chart
from statetree.chart.policy import DEFINITIONS

PACKAGE = Path(statetree.__file__).parent
SETUP = Path(__file__).resolve().parents[2] / "setup.py"


def _compiled_modules() -> list[str]:
    """The modules setup.py compiles: its ``COMPILED`` list (read without running it) and
    every policy's module."""
    policies = [f"statetree.chart.policy.{name}" for name in DEFINITIONS]
    for node in ast.parse(SETUP.read_text()).body:
        if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "COMPILED":
            return [*ast.literal_eval(node.value), *policies]
    raise AssertionError("setup.py has no COMPILED list")


COMPILED_MODULES = _compiled_modules()


def _source(module: str) -> Path:
    return PACKAGE.parent.joinpath(*module.split(".")).with_suffix(".py")


def _definitions(
    body: list[ast.stmt], prefix: str
) -> dict[str, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef]:
    """The documented classes and functions of body, and of its classes, by dotted name.

    Special methods are left out: compiled, they are CPython's slot wrappers, with
    CPython's docstrings. A name defined twice (a property and its setter) keeps the
    definition with a docstring.
    """
    found: dict[str, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef] = {}
    for node in body:
        if not isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if node.name.startswith("__") and node.name.endswith("__"):
            continue
        if ast.get_docstring(node):
            found[prefix + node.name] = node
        if isinstance(node, ast.ClassDef):
            found.update(_definitions(node.body, f"{prefix}{node.name}."))
    return found


def _documented() -> list[tuple[str, str, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef]]:
    return [
        (module, name, node)
        for module in COMPILED_MODULES
        for name, node in _definitions(ast.parse(_source(module).read_text()).body, "").items()
    ]


DOCUMENTED = _documented()


def _runtime(module: str, name: str) -> Any:
    found: Any = import_module(module)
    for part in name.split("."):
        found = getattr(found, part)
    return found


def test_the_compiled_modules_are_the_ones_checked_here() -> None:
    if not st.__compiled__:
        pytest.skip("pure Python build: no module is compiled, so there is no list to check")
    compiled = {
        ".".join((*path.relative_to(PACKAGE.parent).parent.parts, path.name.split(".")[0]))
        for path in PACKAGE.rglob("*.so")
    }
    assert compiled == set(COMPILED_MODULES)


def test_the_check_covers_the_public_api() -> None:
    names = {f"{module}.{name}" for module, name, _ in DOCUMENTED}
    assert {
        "statetree.core.machine.StateMachine",
        "statetree.core.machine.MachineCore.process_state_transitions",
        "statetree.core.options.Options.max_transitions",
        "statetree.core.state.State.depth",
        "statetree.core.options.Options.name",
        "statetree.core.transition.sibling",
        "statetree.core.trace.TraceLevel",
        "statetree.chart.machine.ChartMachine.send",
    } <= names
    assert len(names) > 150


@pytest.mark.parametrize(
    ("module", "name", "node"), DOCUMENTED, ids=[f"{m}.{n}" for m, n, _ in DOCUMENTED]
)
def test_the_docstring_is_the_sources(
    module: str, name: str, node: ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef
) -> None:
    assert inspect.getdoc(_runtime(module, name)) == ast.get_docstring(node)


@pytest.mark.parametrize("module", COMPILED_MODULES)
def test_the_module_docstring_is_the_sources(module: str) -> None:
    source = ast.get_docstring(ast.parse(_source(module).read_text()))
    assert source
    assert inspect.getdoc(import_module(module)) == source


@pytest.mark.parametrize("name", ["sibling", "inner", "inner_entry"])
def test_the_transition_helpers_show_their_signatures(name: str) -> None:
    signature = inspect.signature(getattr(st, name))
    assert [(p.name, p.kind) for p in signature.parameters.values()] == [
        ("target", inspect.Parameter.POSITIONAL_ONLY),
        ("args", inspect.Parameter.VAR_POSITIONAL),
        ("kwargs", inspect.Parameter.VAR_KEYWORD),
    ]


def _parameter_names(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    arguments = node.args
    names = [argument.arg for argument in (*arguments.posonlyargs, *arguments.args)]
    if arguments.vararg:
        names.append(arguments.vararg.arg)
    names += [argument.arg for argument in arguments.kwonlyargs]
    if arguments.kwarg:
        names.append(arguments.kwarg.arg)
    decorators = {ast.unparse(decorator) for decorator in node.decorator_list}
    return names[1:] if "classmethod" in decorators else names


CALLABLES = [
    (module, name, node)
    for module, name, node in DOCUMENTED
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    and not any(
        "property" in ast.unparse(d) or ".setter" in ast.unparse(d) for d in node.decorator_list
    )
]


@pytest.mark.parametrize(
    ("module", "name", "node"), CALLABLES, ids=[f"{m}.{n}" for m, n, _ in CALLABLES]
)
def test_the_signature_names_the_sources_parameters(
    module: str, name: str, node: ast.FunctionDef | ast.AsyncFunctionDef
) -> None:
    signature = inspect.signature(_runtime(module, name))
    assert list(signature.parameters) == _parameter_names(node)


def test_help_on_the_machine_shows_its_methods_docstrings() -> None:
    text = pydoc.render_doc(st.StateMachine, renderer=pydoc.plaintext)
    assert "process_state_transitions(self" in text
    assert "Apply transitions, outermost state first, until the stack settles." in text
    assert "How many stack changes one processing call may make" in text  # a property
