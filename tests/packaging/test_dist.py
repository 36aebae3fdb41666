"""``make dist``'s wheel and source distribution: complete, installable, described right."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterator
from email.parser import HeaderParser
from pathlib import Path

import pytest

import statetree

ROOT = Path(__file__).resolve().parents[2]
VERSION = statetree.__version__


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The wheel and sdist, built as ``make dist`` does (the wheel from the sdist).

    Built without compiling the core (``STATETREE_PURE=1``): a pure wheel, as a machine
    without a C compiler makes; a compiled one only adds the core's extension modules and
    a platform tag, and takes minutes to build.
    """
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        env={**os.environ, "STATETREE_PURE": "1"},
    )
    yield out


def test_the_wheel_holds_the_package_data_and_the_licence(dist: Path) -> None:
    with zipfile.ZipFile(dist / f"statetree-{VERSION}-py3-none-any.whl") as wheel:
        names = set(wheel.namelist())
        entry_points = wheel.read(f"statetree-{VERSION}.dist-info/entry_points.txt").decode()

    assert {
        "statetree/py.typed",
        "statetree/chart/schema.json",
        "statetree/inspect/static/index.html",
        "statetree/_pyinstaller/hook-statetree.chart.policy.py",  # a frozen game's policies
        f"statetree-{VERSION}.dist-info/licenses/LICENSE",
    } <= names
    assert "statetree = statetree.cli.program:main" in entry_points
    assert "[pyinstaller40]\nhook-dirs = statetree._pyinstaller:get_hook_dirs" in entry_points


def test_the_metadata_says_version_licence_and_where_to_look(dist: Path) -> None:
    with zipfile.ZipFile(dist / f"statetree-{VERSION}-py3-none-any.whl") as wheel:
        metadata = HeaderParser().parsestr(
            wheel.read(f"statetree-{VERSION}.dist-info/METADATA").decode()
        )

    assert metadata["Version"] == VERSION
    assert metadata["License-Expression"] == "MIT"
    urls = dict(line.split(", ", 1) for line in metadata.get_all("Project-URL"))
    assert set(urls) == {"Homepage", "Documentation", "Source", "Issues", "Changelog"}
    assert "docs" in metadata.get_all("Provides-Extra")
    assert metadata.get_payload().startswith("# statetree")  # the README, for the index page


def test_the_sdist_holds_what_builds_tests_and_documents_it(dist: Path) -> None:
    with tarfile.open(dist / f"statetree-{VERSION}.tar.gz") as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}

    assert {
        "LICENSE",
        "CHANGELOG.md",
        "README.md",
        "Makefile",
        "mkdocs.yml",
        "pyproject.toml",
        "docs/index.md",
        "examples/demo.py",
        "tests/conftest.py",
        "src/statetree/__init__.py",
        "setup.py",
        "noxfile.py",
        # the C types of the compiled build, read by Cython beside their modules
        "src/statetree/core/machine.pxd",
        "src/statetree/chart/states.pxd",
    } <= names
    assert not any("__pycache__" in name or name.endswith((".so", ".c")) for name in names)


def test_the_wheel_installs_and_runs(dist: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    wheel = dist / f"statetree-{VERSION}-py3-none-any.whl"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
        capture_output=True,
    )
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import statetree, sys; print(statetree.__version__, statetree.__file__)",
        ],
        cwd=tmp_path,
        env={"PYTHONPATH": str(target)},
        capture_output=True,
        text=True,
        check=True,
    )

    version, location = done.stdout.split()
    assert version == VERSION
    assert Path(location).is_relative_to(target)


def test_the_sdist_installs_the_compiled_core_in_an_isolated_build(tmp_path: Path) -> None:
    """What a user gets from ``pip install statetree-*.tar.gz`` with a C compiler: pip
    builds in isolation (Cython and setuptools fetched for the build) and compiles."""
    out = tmp_path / "dist"
    subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--outdir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
    )
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    python = venv / "bin" / "python"
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "STATETREE_PURE")}
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", str(out / f"statetree-{VERSION}.tar.gz")],
        check=True,
        capture_output=True,
        env=environment,
    )
    done = subprocess.run(
        [str(python), "-c", "import statetree; print(statetree.__compiled__)"],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.split() == ["True"]


def test_a_build_that_cannot_compile_says_so_in_one_line_and_keeps_the_source(
    tmp_path: Path,
) -> None:
    """Without a working C compiler the install goes on with the Python source, says why and
    how to get the compiled core in one line, and leaves no compiled module behind."""
    built = tmp_path / "lib"
    done = subprocess.run(
        [
            sys.executable,
            "setup.py",
            "--quiet",
            "build_ext",
            "--build-lib",
            str(built),
            "--build-temp",
            str(tmp_path / "temp"),
        ],
        check=False,
        cwd=ROOT,
        env={**os.environ, "CC": "false", "STATETREE_PURE": ""},  # a compiler that always fails
        capture_output=True,
        text=True,
    )

    assert done.returncode == 0, done.stderr
    said = [line for line in done.stderr.splitlines() if line.startswith("statetree:")]
    assert len(said) == 1
    assert "pure Python core" in said[0] and "install a C compiler" in said[0]
    assert "compiling it failed (CompileError)" in said[0]  # the compiler's command goes before
    assert not [path for path in built.rglob("*") if path.suffix in (".so", ".pyd")]
    note = (built / "statetree" / "core" / "not-compiled.txt").read_text(encoding="utf-8")
    assert note.startswith("statetree: running the pure Python core")
