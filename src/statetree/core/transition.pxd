# For Cython only: Transition as an extension type, read field by field in the settle loop.

from statetree.core cimport capi

cdef class Transition:
    cdef readonly object kind
    cdef readonly object target
    cdef readonly object args  # checked by __post_init__, as the Python source does
    cdef readonly object kwargs
    cdef readonly object regions
    # Set once by __post_init__, which writes them through object.__setattr__.
    cdef public bint has_arguments
    cdef public bint enters
    cdef public bint built_by_call

# Read by the helpers on every call: a C variable, not a module global (a dictionary lookup
# per read on CPython 3.12 and later).
cdef bint COMPILED
