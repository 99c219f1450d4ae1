/* Drumlin: the moves of an ordinary turn, in C.

   The same function as turn_moves in moves.py, which stays the reference
   (tests/games/test_native_moves.py compares the two move for move, in the same
   order, on thousands of positions). A turn has some 125 moves in a random game,
   each a walk step along a ray: in Python that walk is most of a playout's time.
   Here it appends the very text objects of notation's tables, so nothing is built
   but the list.

   turn(board, seat, clou, fives) -> [move text, ...]

   board    80 bytes, one stack id per square (board.py);
   seat     0 or 1; clou: the Clou 1986 rules (0 or 1);
   fives    the squares worth 5, sorted.

   configure(...) copies, once, the tables of board.py, moves.py and notation.py that
   the walk reads (see moves.py, which calls it), so that the rules have one source. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "../native_module.h"

#define SQUARES 80
#define FILES 8
#define MAX_RAYS 4
#define MAX_RAY 10
#define EMPTY 0
#define LONE 1

typedef struct {
    int count;                 /* rays from this square */
    int length[MAX_RAYS];      /* squares on each ray */
    int square[MAX_RAYS][MAX_RAY];
    PyObject *text[MAX_RAYS][MAX_RAY]; /* the move to each of them */
} Rays;

static int configured = 0;
static int stacks = 0;
static unsigned char ELEPHANTS[2][256], DRAGONS[2][256], POINTS[2][256], VALUE[256], EGG_OWNER[256];
static unsigned char ONTO[2][2][256], ELEPHANT_LANDS[256], DRAGON_LANDS[256], DRAGON_PASSES[256];
static Rays ELEPHANT_RAYS[SQUARES], DRAGON_RAYS[SQUARES];
static PyObject *SWAP[SQUARES][SQUARES], *DEPART[SQUARES][SQUARES], *DEPART_BASE[SQUARES], *REMOVE[SQUARES];
static int TARGET_ROW[2];

/* A table of small numbers, one per stack: bytes of the same length for every table. */
static int read_table(PyObject *obj, unsigned char *into) {
    if (!PyBytes_Check(obj) || PyBytes_GET_SIZE(obj) == 0 || (stacks && PyBytes_GET_SIZE(obj) != stacks)) {
        PyErr_SetString(PyExc_ValueError, "each stack table is bytes, one per stack");
        return -1;
    }
    stacks = (int)PyBytes_GET_SIZE(obj);
    if (stacks > 256) {
        PyErr_SetString(PyExc_ValueError, "at most 256 stacks");
        return -1;
    }
    const unsigned char *src = (const unsigned char *)PyBytes_AS_STRING(obj);
    for (int i = 0; i < stacks; i++)
        into[i] = src[i];
    return 0;
}

/* A tuple of n str, kept (new references into `into`). */
static int read_texts(PyObject *obj, PyObject **into, Py_ssize_t n) {
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != n) {
        PyErr_SetString(PyExc_ValueError, "a row of move texts of the wrong size");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *text = PyTuple_GET_ITEM(obj, i);
        if (!PyUnicode_Check(text)) {
            PyErr_SetString(PyExc_ValueError, "a move is text");
            return -1;
        }
        Py_INCREF(text);
        Py_XSETREF(into[i], text);
    }
    return 0;
}

/* notation's rays: for each square, its rays, each a tuple of (square, move text). */
static int read_rays(PyObject *obj, Rays *into) {
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != SQUARES)
        goto bad;
    for (int sq = 0; sq < SQUARES; sq++) {
        PyObject *rays = PyTuple_GET_ITEM(obj, sq);
        if (!PyTuple_Check(rays) || PyTuple_GET_SIZE(rays) > MAX_RAYS)
            goto bad;
        into[sq].count = (int)PyTuple_GET_SIZE(rays);
        for (int r = 0; r < into[sq].count; r++) {
            PyObject *ray = PyTuple_GET_ITEM(rays, r);
            if (!PyTuple_Check(ray) || PyTuple_GET_SIZE(ray) > MAX_RAY)
                goto bad;
            into[sq].length[r] = (int)PyTuple_GET_SIZE(ray);
            for (int k = 0; k < into[sq].length[r]; k++) {
                PyObject *step = PyTuple_GET_ITEM(ray, k);
                if (!PyTuple_Check(step) || PyTuple_GET_SIZE(step) != 2 || !PyUnicode_Check(PyTuple_GET_ITEM(step, 1)))
                    goto bad;
                long t = PyLong_AsLong(PyTuple_GET_ITEM(step, 0));
                if (t < 0 || t >= SQUARES)
                    goto bad;
                into[sq].square[r][k] = (int)t;
                PyObject *text = PyTuple_GET_ITEM(step, 1);
                Py_INCREF(text);
                Py_XSETREF(into[sq].text[r][k], text);
            }
        }
    }
    return 0;
bad:
    if (!PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "rays are 80 tuples of rays of (square, move text)");
    return -1;
}

static PyObject *configure(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *elephants, *dragons, *points, *value, *egg_owner, *onto, *lands, *rays, *texts, *rows;
    if (!PyArg_ParseTuple(args, "O!O!O!SSO!O!O!O!O!", &PyTuple_Type, &elephants, &PyTuple_Type, &dragons,
                          &PyTuple_Type, &points, &value, &egg_owner, &PyTuple_Type, &onto, &PyTuple_Type, &lands,
                          &PyTuple_Type, &rays, &PyTuple_Type, &texts, &PyTuple_Type, &rows))
        return NULL;
    if (PyTuple_GET_SIZE(elephants) != 2 || PyTuple_GET_SIZE(dragons) != 2 || PyTuple_GET_SIZE(points) != 2 ||
        PyTuple_GET_SIZE(onto) != 2 || PyTuple_GET_SIZE(lands) != 3 || PyTuple_GET_SIZE(rays) != 2 ||
        PyTuple_GET_SIZE(texts) != 4 || PyTuple_GET_SIZE(rows) != 2) {
        PyErr_SetString(PyExc_ValueError, "configure(): tables of the wrong shape");
        return NULL;
    }
    configured = 0; /* until every table is read: turn() refuses half-copied tables */
    stacks = 0;
    for (int s = 0; s < 2; s++) {
        PyObject *onto_s = PyTuple_GET_ITEM(onto, s);
        if (read_table(PyTuple_GET_ITEM(elephants, s), ELEPHANTS[s]) < 0 ||
            read_table(PyTuple_GET_ITEM(dragons, s), DRAGONS[s]) < 0 ||
            read_table(PyTuple_GET_ITEM(points, s), POINTS[s]) < 0)
            return NULL;
        if (!PyTuple_Check(onto_s) || PyTuple_GET_SIZE(onto_s) != 2) {
            PyErr_SetString(PyExc_ValueError, "configure(): onto is [clou][seat]");
            return NULL;
        }
        for (int seat = 0; seat < 2; seat++)
            if (read_table(PyTuple_GET_ITEM(onto_s, seat), ONTO[s][seat]) < 0)
                return NULL;
        long row = PyLong_AsLong(PyTuple_GET_ITEM(rows, s));
        if (row < 0 || row >= SQUARES / FILES) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "configure(): a target row is a rank index");
            return NULL;
        }
        TARGET_ROW[s] = (int)row;
    }
    /* egg owners are -1, 0 or 1: given plus one */
    if (read_table(value, VALUE) < 0 || read_table(egg_owner, EGG_OWNER) < 0 ||
        read_table(PyTuple_GET_ITEM(lands, 0), ELEPHANT_LANDS) < 0 ||
        read_table(PyTuple_GET_ITEM(lands, 1), DRAGON_LANDS) < 0 ||
        read_table(PyTuple_GET_ITEM(lands, 2), DRAGON_PASSES) < 0)
        return NULL;
    if (read_rays(PyTuple_GET_ITEM(rays, 0), ELEPHANT_RAYS) < 0 || read_rays(PyTuple_GET_ITEM(rays, 1), DRAGON_RAYS) < 0)
        return NULL;
    PyObject *swap = PyTuple_GET_ITEM(texts, 0), *depart = PyTuple_GET_ITEM(texts, 1);
    if (!PyTuple_Check(swap) || PyTuple_GET_SIZE(swap) != SQUARES || !PyTuple_Check(depart) ||
        PyTuple_GET_SIZE(depart) != SQUARES) {
        PyErr_SetString(PyExc_ValueError, "configure(): swaps and departures are 80 rows of 80 texts");
        return NULL;
    }
    for (int sq = 0; sq < SQUARES; sq++)
        if (read_texts(PyTuple_GET_ITEM(swap, sq), SWAP[sq], SQUARES) < 0 ||
            read_texts(PyTuple_GET_ITEM(depart, sq), DEPART[sq], SQUARES) < 0)
            return NULL;
    if (read_texts(PyTuple_GET_ITEM(texts, 2), DEPART_BASE, SQUARES) < 0 ||
        read_texts(PyTuple_GET_ITEM(texts, 3), REMOVE, SQUARES) < 0)
        return NULL;
    configured = 1;
    Py_RETURN_NONE;
}

/* The elephant, then dragon moves of `seat` from `sq` (moves._piece_moves). */
static int piece_moves(const unsigned char *b, int seat, int sq, PyObject *out) {
    int stack = b[sq];
    if (ELEPHANTS[seat][stack]) {
        const Rays *rays = &ELEPHANT_RAYS[sq];
        for (int r = 0; r < rays->count; r++)
            for (int k = 0; k < rays->length[r]; k++) {
                int dest = b[rays->square[r][k]];
                if (dest <= LONE) { /* empty, or the lone Drumlin: pass or stop */
                    if (PyList_Append(out, rays->text[r][k]) < 0)
                        return -1;
                    continue;
                }
                if (ELEPHANT_LANDS[dest] && PyList_Append(out, rays->text[r][k]) < 0)
                    return -1;
                break;
            }
    }
    if (DRAGONS[seat][stack]) {
        const Rays *rays = &DRAGON_RAYS[sq];
        for (int r = 0; r < rays->count; r++)
            for (int k = 0; k < rays->length[r]; k++) {
                int dest = b[rays->square[r][k]];
                if (dest == EMPTY) {
                    if (PyList_Append(out, rays->text[r][k]) < 0)
                        return -1;
                    continue;
                }
                if (DRAGON_LANDS[dest] && PyList_Append(out, rays->text[r][k]) < 0)
                    return -1;
                if (!DRAGON_PASSES[dest])
                    break;
            }
    }
    return 0;
}

static PyObject *turn(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *board, *fives;
    int seat, clou;
    if (!PyArg_ParseTuple(args, "SipO!", &board, &seat, &clou, &PyTuple_Type, &fives))
        return NULL;
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "configure() first");
        return NULL;
    }
    if (PyBytes_GET_SIZE(board) != SQUARES || (seat != 0 && seat != 1)) {
        PyErr_SetString(PyExc_ValueError, "a board of 80 squares and seat 0 or 1 are needed");
        return NULL;
    }
    const unsigned char *b = (const unsigned char *)PyBytes_AS_STRING(board);
    for (int sq = 0; sq < SQUARES; sq++)
        if (b[sq] >= stacks) {
            PyErr_SetString(PyExc_ValueError, "a square holds an unknown stack");
            return NULL;
        }
    const unsigned char *points = POINTS[seat];
    PyObject *out = PyList_New(0);
    if (out == NULL)
        return NULL;
    Py_ssize_t n_fives = PyTuple_GET_SIZE(fives);
    if (n_fives > SQUARES) {
        PyErr_SetString(PyExc_ValueError, "more squares worth 5 than the board has");
        goto fail;
    }
    if (n_fives) {
        /* The obligation at 5: the mover's pieces there move, or else are removed. */
        int held[SQUARES], n_held = 0;
        for (Py_ssize_t i = 0; i < n_fives; i++) {
            long sq = PyLong_AsLong(PyTuple_GET_ITEM(fives, i));
            if (sq < 0 || sq >= SQUARES) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "a square worth 5 off the board");
                goto fail;
            }
            if (points[b[sq]])
                held[n_held++] = (int)sq;
        }
        if (n_held) {
            for (int i = 0; i < n_held; i++)
                if (piece_moves(b, seat, held[i], out) < 0)
                    goto fail;
            if (PyList_GET_SIZE(out) == 0)
                for (int i = 0; i < n_held; i++)
                    if (PyList_Append(out, REMOVE[held[i]]) < 0)
                        goto fail;
            return out;
        }
    }
    int pairs[SQUARES], dens[SQUARES], landing[SQUARES];
    int n_pairs = 0, n_dens = 0, n_landing = 0, egg = -1;
    const unsigned char *onto = ONTO[clou ? 1 : 0][seat];
    for (int sq = 0; sq < SQUARES; sq++) {
        int stack = b[sq];
        if (!points[stack])
            continue;
        if (piece_moves(b, seat, sq, out) < 0)
            goto fail;
        if (ELEPHANTS[seat][stack] >= 2)
            pairs[n_pairs++] = sq;
        if (DRAGONS[seat][stack])
            dens[n_dens++] = sq;
        if (EGG_OWNER[stack] == seat + 1)
            egg = sq;
        else if (onto[stack])
            landing[n_landing++] = sq;
    }
    for (int i = 0; i < n_pairs; i++)
        for (int j = 0; j < n_dens; j++)
            if (dens[j] != pairs[i] && PyList_Append(out, SWAP[pairs[i]][dens[j]]) < 0)
                goto fail;
    if (egg >= 0 && 2 * points[b[egg]] > VALUE[b[egg]]) {
        /* A free departure: to any empty square, or onto an own elephant (moves._ONTO). */
        unsigned char chosen[SQUARES];
        for (int t = 0; t < SQUARES; t++)
            chosen[t] = b[t] == EMPTY;
        for (int i = 0; i < n_landing; i++)
            chosen[landing[i]] = 1;
        for (int t = 0; t < SQUARES; t++)
            if (chosen[t] && PyList_Append(out, DEPART[egg][t]) < 0)
                goto fail;
        if (egg / FILES == TARGET_ROW[seat] && PyList_Append(out, DEPART_BASE[egg]) < 0)
            goto fail;
    }
    return out;
fail:
    Py_DECREF(out);
    return NULL;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS, "Copy the tables the walk reads."},
    {"turn", turn, METH_VARARGS, "Every action of an ordinary turn, as moves.turn_moves gives them."},
    {NULL, NULL, 0, NULL},
};

ENGINE_MODULE(_drumlin_moves, "Drumlin's turn moves, in C.")
