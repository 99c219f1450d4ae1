/* The module definition the engines' C move generators share (games/engines/karo/
 * _quatre_moves.c, games/engines/drumlin/_drumlin_moves.c): a module of the methods
 * table `methods` the including file defines, with the one policy both need. Their
 * tables are process-wide statics, written by configure(), so a module refuses to be
 * loaded by an isolated subinterpreter; the engine then runs its Python moves.
 *
 * At the end of a module's file: ENGINE_MODULE(_name, "its docstring") */

#ifndef LUDO_NATIVE_MODULE_H
#define LUDO_NATIVE_MODULE_H

#include <Python.h>

static PyModuleDef_Slot engine_module_slots[] = {
#ifdef Py_mod_multiple_interpreters
    {Py_mod_multiple_interpreters, Py_MOD_MULTIPLE_INTERPRETERS_NOT_SUPPORTED},
#endif
    {0, NULL},
};

#define ENGINE_MODULE(NAME, DOC)                                                                      \
    static struct PyModuleDef engine_module = {                                                       \
        PyModuleDef_HEAD_INIT, #NAME, DOC, 0, methods, engine_module_slots, NULL, NULL, NULL,         \
    };                                                                                                \
    PyMODINIT_FUNC PyInit_##NAME(void) { return PyModuleDef_Init(&engine_module); }

#endif
