# For Cython only: the C types of the sequential policy's transition functions.

cimport cython

from statetree.chart.runtime cimport ChartRuntime
from statetree.chart.states cimport done, fire


@cython.locals(runtime=ChartRuntime)
cpdef sequential(state)

cpdef fire_or_sequential(state)
