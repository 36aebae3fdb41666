"""Run the benchmarks: statetree against its peers and a hand-written baseline, then every
other ``benchmarks/bench_*.py``.

Usage: ``python benchmarks/run.py`` (``make bench``). Exits with 1 when a contender does not
do the same work as the baseline or another benchmark fails; a missed target is reported,
not treated as a failure.
"""

from __future__ import annotations

import platform
import runpy
import sys
import traceback
from pathlib import Path
from time import perf_counter

from corebench import workloads
from corebench.contenders import load
from corebench.report import format_table, format_targets
from corebench.targets import Results, judge

HERE = Path(__file__).resolve().parent


def run_core() -> None:
    """Measure the four workloads and print their tables and the targets.

    Raises:
        corebench.verify.DisagreementError: a contender did different work.
    """
    lineup = load()
    for reason in lineup.skipped:
        print(f"skipped {reason}")
    contenders = lineup.contenders
    steps = (
        workloads.toggle,
        workloads.character,
        workloads.idle_frame,
        workloads.building,
        workloads.memory,
    )
    tables = []
    for step in steps:
        table = step(contenders)
        print(format_table(table), end="\n\n", flush=True)
        tables.append(table)
    print(format_targets(judge(Results(*tables))), end="\n\n")


def run_others() -> list[str]:
    """Run every other ``bench_*.py`` as a script.

    Returns:
        The names of those that failed (their tracebacks are printed).
    """
    failed = []
    for path in sorted(HERE.glob("bench_*.py")):
        print(f"== {path.name} ==", flush=True)
        try:
            runpy.run_path(str(path), run_name="__main__")
        except SystemExit as done:
            if done.code not in (None, 0):
                failed.append(path.name)
        except Exception:
            # Flushed first so that the traceback follows the output it belongs to.
            sys.stdout.flush()
            traceback.print_exc()
            failed.append(path.name)
        print()
    return failed


def main() -> int:
    """Run everything; return the exit status."""
    start = perf_counter()
    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{platform.system()} {platform.machine()}\n"
    )
    run_core()
    failed = run_others()
    print(f"Done in {perf_counter() - start:.0f} s.", flush=True)
    if failed:
        print(f"FAILED: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
