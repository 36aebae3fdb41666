# For Cython only: the settle loop's C types.

cimport cython

from statetree.core cimport capi
from statetree.core.options cimport Extras, Options
from statetree.core.transition cimport Transition

# Names the per-frame path reads, imported once into C variables (a module global costs
# a dictionary lookup per read on CPython 3.12 and later).
cdef object SIBLING, INNER, CONCURRENT, _ENTRY, _INNER, _SIBLING, _REGION, _POP, _OWNER, _MACHINE
cdef bint COMPILED


@cython.locals(extras=Extras, quiet=Py_ssize_t, stack=list, chosen=Transition)
cpdef settle(Options machine, Py_ssize_t changes)

@cython.locals(extras=Extras, states=list, plain=type)
cpdef apply(Options machine, list home, Py_ssize_t index, Py_ssize_t depth, Transition chosen,
            step=*)

cpdef pop_to(Options machine, list home, Py_ssize_t size)

cpdef enter(Options machine, list home, Transition chosen, Py_ssize_t depth, step)

@cython.locals(states=list, last=Py_ssize_t, index=Py_ssize_t, chosen=Transition)
cpdef next_change(list main, regions, Py_ssize_t base)
