# For Cython only: four calls of CPython's C API that the compiled core makes on its
# per-frame path where Python code goes through the attribute machinery (each of its type
# lookups reads the interpreter's state, a thread-local read in a shared libpython). They
# read documented fields and call documented slots; nothing is patched. capi.py holds the
# same calls as Python, which the Python source runs.

cdef extern from *:
    """
    #include "pythread.h"

    /* target's own attribute `name` when target is a class that holds it in its
       dictionary, else getattr(target, name, None). */
    static inline PyObject *statetree_own(PyObject *target, PyObject *name) {
        PyObject *value;
        if (PyType_Check(target) && ((PyTypeObject *)target)->tp_dict != NULL) {
            value = PyDict_GetItemWithError(((PyTypeObject *)target)->tp_dict, name);
            if (value != NULL) {
                Py_INCREF(value);
                return value;
            }
            if (PyErr_Occurred()) {
                return NULL;
            }
        }
        value = PyObject_GetAttr(target, name);
        if (value == NULL && PyErr_ExceptionMatches(PyExc_AttributeError)) {
            PyErr_Clear();
            Py_INCREF(Py_None);
            value = Py_None;
        }
        return value;
    }

    /* target's attribute `name` when its own dictionary holds it (not inherited), else
       None; None when target is not a class. */
    static inline PyObject *statetree_cached(PyObject *target, PyObject *name) {
        PyObject *value = NULL;
        if (PyType_Check(target) && ((PyTypeObject *)target)->tp_dict != NULL) {
            value = PyDict_GetItemWithError(((PyTypeObject *)target)->tp_dict, name);
            if (value == NULL && PyErr_Occurred()) {
                return NULL;
            }
        }
        if (value == NULL) {
            value = Py_None;
        }
        Py_INCREF(value);
        return value;
    }

    /* descriptor.__set__(instance, value), through the descriptor's own slot. */
    static inline int statetree_set_slot(PyObject *descriptor, PyObject *instance, PyObject *value) {
        descrsetfunc set = Py_TYPE(descriptor)->tp_descr_set;
        if (set == NULL) {
            PyErr_SetString(PyExc_TypeError, "not a data descriptor");
            return -1;
        }
        return set(descriptor, instance, value);
    }
    """
    object own "statetree_own" (object target, object name)
    object cached "statetree_cached" (object target, object name)
    int set_slot "statetree_set_slot" (object descriptor, object instance, object value) except -1
    unsigned long thread_id "PyThread_get_thread_ident" ()
