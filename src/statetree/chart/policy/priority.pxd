# For Cython only: the C types of the priority policy's transition functions.

cimport cython

from statetree.chart.conditions cimport Compiled
from statetree.chart.runtime cimport ChartRuntime
from statetree.chart.states cimport done, fire


@cython.locals(runtime=ChartRuntime, base=Py_ssize_t, index=Py_ssize_t, higher=Py_ssize_t,
               pre=Compiled, entry=Py_ssize_t, since=Py_ssize_t)
cpdef priority(state)

cpdef fire_or_priority(state)

@cython.locals(index=Py_ssize_t, pre=Compiled)
cpdef Py_ssize_t first_holding(tuple pres, ChartRuntime runtime, Py_ssize_t base,
                               Py_ssize_t skip) except -1
