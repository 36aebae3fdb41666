# For Cython only: the concurrent policy's transition functions.

from statetree.chart.states cimport fire


cpdef concurrent(state)

cpdef fire_or_concurrent(state)
