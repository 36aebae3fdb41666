#!/bin/sh
# The JAX benchmark on a machine with a GPU and JAX for CUDA, but no package index.
#
# statetree needs nothing beyond Python (NumPy comes with JAX), so the checkout is used in
# place: no install, no build (the core's pure-Python source). numba is optional: without
# it the numba contenders are left out and the program alone is timed, at 1,000,000 and
# 10,000,000 agents, after the check that it equals ChartBatch frame by frame.
#
#   sh benchmarks/gpu_jax.sh                      # about two minutes on one GPU
#   sh benchmarks/gpu_jax.sh --sizes=1000000      # other sizes
set -eu
cd "$(dirname "$0")/.."
export PYTHONPATH="$PWD/src${PYTHONPATH:+:$PYTHONPATH}" STATETREE_PURE=1
PYTHON="${PYTHON:-python3}"
"$PYTHON" -c "import jax, statetree; print('statetree', statetree.__version__, 'JAX', jax.__version__, jax.devices())"
cd benchmarks
exec "$PYTHON" bench_jax.py "$@"
