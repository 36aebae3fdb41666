/* How instances of the compiled core's classes that Python classes subclass are freed.

   mypyc gives a compiled class with a Python base (Generic) a __dict__ and a __weakref__
   slot, but handles the weak-reference list as if it held a reference: its clear function
   releases it (freeing a live weak reference: a crash) and its traverse function reports
   it to the garbage collector. And for an instance of a Python subclass, neither its
   deallocator releases nor its traverse function reports the reference the instance holds
   to its class, so a class made at run time (such as a reloaded chart's) is never freed.

   repair(cls) wraps those three functions of such a class to do what CPython does for a
   class of its own: weak references are cleared before the instance's slots, the list is
   never reported, and an instance of a Python subclass releases (and reports) its class. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define MAX_REPAIRED 16

typedef struct {
    PyTypeObject *type;
    destructor dealloc;
    traverseproc traverse;
    inquiry clear;
} Repaired;

static Repaired repaired[MAX_REPAIRED];
static int repaired_count = 0;

/* The repaired class nearest to type in its bases (there is one: only they use these). */
static Repaired *
repaired_of(PyTypeObject *type)
{
    for (PyTypeObject *base = type; base != NULL; base = base->tp_base) {
        for (int index = 0; index < repaired_count; index++) {
            if (repaired[index].type == base) {
                return &repaired[index];
            }
        }
    }
    Py_FatalError("statetree: a repaired function called for a class never repaired");
}

static PyObject **
weak_list(PyObject *self)
{
    Py_ssize_t offset = Py_TYPE(self)->tp_weaklistoffset;
    return offset > 0 ? (PyObject **)((char *)self + offset) : NULL;
}

static void
clear_weak_references(PyObject *self)
{
    PyObject **list = weak_list(self);
    if (list != NULL && *list != NULL) {
        PyObject_ClearWeakRefs(self);
    }
}

/* Whether the instance's class is a Python subclass, whose reference is the instance's. */
static int
owns_class(PyObject *self, Repaired *found)
{
    PyTypeObject *type = Py_TYPE(self);
    return (type->tp_flags & Py_TPFLAGS_HEAPTYPE) && type != found->type;
}

static void
repaired_dealloc(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    Repaired *found = repaired_of(type);
    int release = owns_class(self, found);
    PyObject_GC_UnTrack(self);
    clear_weak_references(self);
    found->dealloc(self);
    if (release) {
        Py_DECREF(type);
    }
}

static int
repaired_traverse(PyObject *self, visitproc visit, void *arg)
{
    Repaired *found = repaired_of(Py_TYPE(self));
    if (owns_class(self, found)) {
        Py_VISIT(Py_TYPE(self));
    }
    PyObject **list = weak_list(self);
    if (list == NULL || *list == NULL) {
        return found->traverse(self, visit, arg);
    }
    PyObject *kept = *list;  /* hidden from the traverse function that would report it */
    *list = NULL;
    int result = found->traverse(self, visit, arg);
    *list = kept;
    return result;
}

static int
repaired_clear(PyObject *self)
{
    clear_weak_references(self);
    return repaired_of(Py_TYPE(self))->clear(self);
}

static PyObject *
repair(PyObject *module, PyObject *cls)
{
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "repair() needs a class");
        return NULL;
    }
    PyTypeObject *type = (PyTypeObject *)cls;
#if PY_VERSION_HEX >= 0x030C0000
    /* Checked on CPython 3.10 and 3.11; later versions lay instances out differently. */
    Py_RETURN_NONE;
#endif
    if (type->tp_dealloc == repaired_dealloc) {
        Py_RETURN_NONE;
    }
    if (repaired_count == MAX_REPAIRED || type->tp_traverse == NULL || type->tp_clear == NULL) {
        PyErr_Format(PyExc_RuntimeError, "repair(): cannot repair %s", type->tp_name);
        return NULL;
    }
    Py_INCREF(type);  /* kept for the life of the process, as its functions are */
    repaired[repaired_count] = (Repaired){type, type->tp_dealloc, type->tp_traverse, type->tp_clear};
    repaired_count++;
    type->tp_dealloc = repaired_dealloc;
    type->tp_traverse = repaired_traverse;
    type->tp_clear = repaired_clear;
    PyType_Modified(type);
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"repair", repair, METH_O, "Wrap the deallocator of a compiled class (see the module)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_native_repair", NULL, -1, methods,
};

PyMODINIT_FUNC
PyInit__native_repair(void)
{
    return PyModule_Create(&module);
}
