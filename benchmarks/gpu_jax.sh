#!/bin/sh
# The JAX benchmark on a machine with a GPU and JAX for CUDA, but no package index.
#
# statetree needs nothing beyond Python and JAX 0.8 or later (NumPy comes with JAX), so the
# checkout is used in place: no install, no build (the core's pure-Python source). numba is
# optional: without it the numba contenders are left out and the program alone is timed, at
# 1,000,000 and 10,000,000 agents, after the check that it equals ChartBatch frame by frame.
#
#   sh benchmarks/gpu_jax.sh                      # about two minutes on one GPU
#   sh benchmarks/gpu_jax.sh --sizes=1000000      # other sizes
set -eu
cd "$(dirname "$0")/.."
export PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}" STATETREE_PURE=1
PYTHON="${PYTHON:-python3}"
"$PYTHON" - <<'CHECK'
import sys
import jax
import statetree
found = tuple(int(part) for part in jax.__version__.split(".")[:2])
print("statetree", statetree.__version__, "JAX", jax.__version__, jax.devices())
if found < (0, 8):
    sys.exit(f"statetree.chart.jax needs JAX 0.8 or later, this machine has {jax.__version__}")
CHECK
cd benchmarks
exec "$PYTHON" bench_jax.py "$@"
