# For Cython only: the base of State as an extension type that Python classes subclass.

cdef class StateCore:
    cdef object __weakref__
