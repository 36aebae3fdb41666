# For Cython only: the machine's work as an extension type that Python classes subclass.

cimport cython

from statetree.core cimport capi
from statetree.core.options cimport Options
from statetree.core.settle cimport apply
from statetree.core.transition cimport Transition

# Names the per-frame path and a new machine read, imported once into C variables (a module
# global costs a dictionary lookup per read on CPython 3.12 and later).
cdef object SIBLING, INNER, DEFAULT_MAX_TRANSITIONS, _NO_TRACE
cdef Py_ssize_t PLAIN_CHANGES
cdef long HAS_UPDATE


cpdef _initial_transition(initial)


cdef class MachineCore(Options):
    @cython.locals(stack=list, changes=Py_ssize_t, last=Py_ssize_t, index=Py_ssize_t,
                   chosen=Transition)
    cpdef process_state_transitions(self)
