# For Cython only: the C types of the explicit policy's transition functions.

cimport cython

from statetree.chart.runtime cimport ChartRuntime
from statetree.chart.states cimport fire


@cython.locals(runtime=ChartRuntime)
cpdef resume(state)

@cython.locals(runtime=ChartRuntime)
cpdef fire_or_resume(state)
