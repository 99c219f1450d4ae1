/* Quatre en ligne: the movement phase's moves, in C.

   The same function as generate_movement in quatre_en_ligne.py, which stays the
   reference (tests/games/test_native_moves.py compares the two move for move, in
   the same order, on thousands of positions): random playouts and the bots spend
   most of their time there, and in Python it is bound by the interpreter's cost
   per direction looked at and per move text built.

   movement(board, tiles, names, seat, layout, liftable) -> {move text: detail}

   board    the window, one ASCII character per place: ' ' no tile, '.' an empty
            tile, P M p m a piece;
   tiles    the places holding a tile, in order;
   names    the "x,y" text of every place of the window (ASCII);
   seat     0 or 1;
   layout   the Layout, and liftable its Python test, asked only in the rare case
            this file does not decide alone (a tile between two opposite
            neighbours on a board that closes in a hole).

   configure(offsets, north, east, move_tag, tile_tag) gives, once, the window's
   eight directions (clockwise from north), its two sides and the tags of the
   details, so that the geometry has one source (geometry.Window).

   Every read of the board is bounds-checked: a place outside the string reads as
   no tile. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#include "../native_module.h"

#define BLANK ' '
#define EMPTY '.'
#define NO_SIDE (-2)
#define SIDES (-1)
#define MAX_NAME 24
#define MAX_TEXT (4 * MAX_NAME + 8)
#define MAX_OFFSET (1 << 20)

static Py_ssize_t OFFSETS[8];
/* The details, made once: DETAILS[place][direction][jumped][tile move]. A detail is
   read only (by play), so every move to the same place from the same piece shares it. */
#define CACHED_PLACES 1024
static PyObject *DETAILS[CACHED_PLACES][8][2][2];
static Py_ssize_t NORTH, EAST;
static PyObject *MOVE_TAG = NULL, *TILE_TAG = NULL;

typedef struct {
    const Py_UCS1 *cells;
    Py_ssize_t size;
} Board;

static inline Py_UCS1 at(const Board *b, Py_ssize_t i) {
    return (i >= 0 && i < b->size) ? b->cells[i] : BLANK;
}

static PyObject *configure(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *offsets, *move_tag, *tile_tag;
    Py_ssize_t north, east;
    if (!PyArg_ParseTuple(args, "O!nnUU", &PyTuple_Type, &offsets, &north, &east, &move_tag, &tile_tag))
        return NULL;
    if (PyTuple_GET_SIZE(offsets) != 8) {
        PyErr_SetString(PyExc_ValueError, "eight directions are needed");
        return NULL;
    }
    /* Read everything first: a refused call changes nothing. Offsets are a few places
       (a bound keeps every sum of them far from overflowing). */
    Py_ssize_t offsets_read[8];
    for (Py_ssize_t k = 0; k < 8; k++) {
        Py_ssize_t d = PyLong_AsSsize_t(PyTuple_GET_ITEM(offsets, k));
        if (d == -1 && PyErr_Occurred())
            return NULL;
        offsets_read[k] = d;
    }
    for (int k = 0; k < 10; k++) {
        Py_ssize_t d = k < 8 ? offsets_read[k] : (k == 8 ? north : east);
        if (d < -MAX_OFFSET || d > MAX_OFFSET) {
            PyErr_SetString(PyExc_ValueError, "a direction is a few places of the window");
            return NULL;
        }
    }
    memcpy(OFFSETS, offsets_read, sizeof OFFSETS);
    NORTH = north;
    EAST = east;
    for (Py_ssize_t i = 0; i < CACHED_PLACES; i++)
        for (int k = 0; k < 8; k++)
            for (int j = 0; j < 2; j++)
                for (int t = 0; t < 2; t++)
                    Py_CLEAR(DETAILS[i][k][j][t]);
    Py_INCREF(move_tag);
    Py_XSETREF(MOVE_TAG, move_tag);
    Py_INCREF(tile_tag);
    Py_XSETREF(TILE_TAG, tile_tag);
    Py_RETURN_NONE;
}

/* The text of place i, checked: ASCII and short. */
static int name_of(PyObject *names, Py_ssize_t i, const char **text, Py_ssize_t *len) {
    if (i < 0 || i >= PyTuple_GET_SIZE(names)) {
        PyErr_SetString(PyExc_ValueError, "a place outside the names");
        return -1;
    }
    PyObject *name = PyTuple_GET_ITEM(names, i);
    if (!PyUnicode_Check(name) || !PyUnicode_IS_ASCII(name) || PyUnicode_GET_LENGTH(name) > MAX_NAME) {
        PyErr_SetString(PyExc_ValueError, "a place's name must be short ASCII text");
        return -1;
    }
    *text = (const char *)PyUnicode_1BYTE_DATA(name);
    *len = PyUnicode_GET_LENGTH(name);
    return 0;
}

/* Which tiles place i touches by a side: the tile when it is one, SIDES for more,
   NO_SIDE for none (quatre_en_ligne.touching). */
static Py_ssize_t touching(const Board *b, Py_ssize_t i) {
    Py_ssize_t only = NO_SIDE;
    if (at(b, i + NORTH) != BLANK)
        only = i + NORTH;
    if (at(b, i + EAST) != BLANK) {
        if (only != NO_SIDE)
            return SIDES;
        only = i + EAST;
    }
    if (at(b, i - NORTH) != BLANK) {
        if (only != NO_SIDE)
            return SIDES;
        only = i - NORTH;
    }
    if (at(b, i - EAST) != BLANK) {
        if (only != NO_SIDE)
            return SIDES;
        only = i - EAST;
    }
    return only;
}

/* quatre_en_ligne.liftable for an empty tile t: 1 or 0, or -1 with an exception.
   Only a tile with two opposite neighbours (or two at right angles with no tile in
   the corner between them) on a board with a hole needs the flood fill: that case
   is handed to the Python function. */
static int can_lift(const Board *b, Py_ssize_t t, PyObject *board, PyObject *layout, PyObject *liftable,
                    int *holes) {
    int north = at(b, t + NORTH) != BLANK;
    int east = at(b, t + EAST) != BLANK;
    int south = at(b, t - NORTH) != BLANK;
    int west = at(b, t - EAST) != BLANK;
    int count = north + east + south + west;
    if (count != 2)
        return count < 2;
    if (north != south && at(b, t + (north ? NORTH : -NORTH) + (east ? EAST : -EAST)) != BLANK)
        return 1;
    if (*holes < 0) {
        PyObject *value = PyObject_GetAttrString(layout, "holes");
        if (value == NULL)
            return -1;
        long n = PyLong_AsLong(value);
        Py_DECREF(value);
        if (n == -1 && PyErr_Occurred())
            return -1;
        *holes = n != 0;
    }
    if (!*holes)
        return 0;
    PyObject *index = PyLong_FromSsize_t(t);
    if (index == NULL)
        return -1;
    PyObject *answer = PyObject_CallFunctionObjArgs(liftable, board, layout, index, NULL);
    Py_DECREF(index);
    if (answer == NULL)
        return -1;
    int yes = PyObject_IsTrue(answer);
    Py_DECREF(answer);
    return yes;
}

/* "from>to" written at text; its length. */
static Py_ssize_t arrow(char *text, const char *from, Py_ssize_t from_len, const char *to, Py_ssize_t to_len) {
    memcpy(text, from, (size_t)from_len);
    text[from_len] = '>';
    memcpy(text + from_len + 1, to, (size_t)to_len);
    return from_len + 1 + to_len;
}

/* A new str from ASCII bytes. */
static PyObject *ascii_text(const char *bytes, Py_ssize_t len) {
    PyObject *text = PyUnicode_New(len, 127);
    if (text != NULL)
        memcpy(PyUnicode_1BYTE_DATA(text), bytes, (size_t)len);
    return text;
}

/* The detail of a move of the piece on c in direction k: (MOVE, c, target, jumped)
   for a step or jump, (TILE, target, c, jumped) for a tile move. A new reference. */
static PyObject *detail_of(Py_ssize_t c, int k, int jumped, int tile, Py_ssize_t target) {
    PyObject **slot = (c >= 0 && c < CACHED_PLACES) ? &DETAILS[c][k][jumped][tile] : NULL;
    if (slot != NULL && *slot != NULL)
        return Py_NewRef(*slot);
    PyObject *detail = tile ? Py_BuildValue("(OnnO)", TILE_TAG, target, c, jumped ? Py_True : Py_False)
                            : Py_BuildValue("(OnnO)", MOVE_TAG, c, target, jumped ? Py_True : Py_False);
    if (detail != NULL && slot != NULL)
        *slot = Py_NewRef(detail);
    return detail;
}

static PyObject *movement(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *board_obj, *tiles, *names, *layout, *liftable;
    int seat;
    if (!PyArg_ParseTuple(args, "UO!O!iOO", &board_obj, &PyTuple_Type, &tiles, &PyTuple_Type, &names, &seat,
                          &layout, &liftable))
        return NULL;
    if (MOVE_TAG == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "configure() first");
        return NULL;
    }
    if (!PyUnicode_IS_ASCII(board_obj) || (seat != 0 && seat != 1)) {
        PyErr_SetString(PyExc_ValueError, "an ASCII board and seat 0 or 1 are needed");
        return NULL;
    }
    Board b = {PyUnicode_1BYTE_DATA(board_obj), PyUnicode_GET_LENGTH(board_obj)};
    const Py_UCS1 plain = seat ? 'p' : 'P', marked = seat ? 'm' : 'M';
    Py_ssize_t count = PyTuple_GET_SIZE(tiles);
    Py_ssize_t *lifts = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(count ? count : 1));
    Py_ssize_t *mine = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(count ? count : 1));
    PyObject *out = NULL;
    Py_ssize_t n_lifts = 0, n_mine = 0;
    int holes = -1;
    if (lifts == NULL || mine == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t k = 0; k < count; k++) {
        Py_ssize_t t = PyLong_AsSsize_t(PyTuple_GET_ITEM(tiles, k));
        if (t == -1 && PyErr_Occurred())
            goto done;
        Py_UCS1 ch = at(&b, t);
        if (ch == EMPTY) {
            int yes = can_lift(&b, t, board_obj, layout, liftable, &holes);
            if (yes < 0)
                goto done;
            if (yes)
                lifts[n_lifts++] = t;
        } else if (ch == plain || ch == marked) {
            mine[n_mine++] = t;
        }
    }
    out = PyDict_New();
    if (out == NULL)
        goto done;
    char text[MAX_TEXT];
    for (Py_ssize_t m = 0; m < n_mine; m++) {
        Py_ssize_t c = mine[m];
        const char *start;
        Py_ssize_t start_len;
        if (name_of(names, c, &start, &start_len) < 0)
            goto fail;
        for (int k = 0; k < 8; k++) {
            Py_ssize_t d = OFFSETS[k];
            Py_ssize_t target = c + d;
            Py_UCS1 ch = at(&b, target);
            int jumped = 0;
            if (ch != EMPTY && ch != BLANK) {
                jumped = 1;
                target += d;
                ch = at(&b, target);
                if (ch != EMPTY && ch != BLANK)
                    continue;
            }
            const char *to;
            Py_ssize_t to_len;
            if (ch == EMPTY) {
                /* a step, or a jump: start>to */
                if (name_of(names, target, &to, &to_len) < 0)
                    goto fail;
                PyObject *move = ascii_text(text, arrow(text, start, start_len, to, to_len));
                PyObject *detail = move ? detail_of(c, k, jumped, 0, target) : NULL;
                int failed = detail == NULL || PyDict_SetItem(out, move, detail) < 0;
                Py_XDECREF(move);
                Py_XDECREF(detail);
                if (failed)
                    goto fail;
                continue;
            }
            /* No tile on target: a tile moved there would let this piece go onto it. */
            if (n_lifts == 0)
                continue;
            Py_ssize_t only = touching(&b, target);
            if (only == NO_SIDE)
                continue; /* a tile there would touch the board only by a corner */
            if (name_of(names, target, &to, &to_len) < 0)
                goto fail;
            PyObject *detail = detail_of(c, k, jumped, 1, target);
            if (detail == NULL)
                goto fail;
            /* lift>to:start>to, one per tile that may be lifted but the one target leans on */
            for (Py_ssize_t l = 0; l < n_lifts; l++) {
                Py_ssize_t lift = lifts[l];
                if (lift == only)
                    continue; /* a tile touching only the place it left would float free */
                const char *lifted;
                Py_ssize_t lifted_len;
                if (name_of(names, lift, &lifted, &lifted_len) < 0) {
                    Py_DECREF(detail);
                    goto fail;
                }
                Py_ssize_t n = arrow(text, lifted, lifted_len, to, to_len);
                text[n++] = ':';
                n += arrow(text + n, start, start_len, to, to_len);
                PyObject *move = ascii_text(text, n);
                int failed = move == NULL || PyDict_SetItem(out, move, detail) < 0;
                Py_XDECREF(move);
                if (failed) {
                    Py_DECREF(detail);
                    goto fail;
                }
            }
            Py_DECREF(detail);
        }
    }
    goto done;
fail:
    Py_CLEAR(out);
done:
    PyMem_Free(lifts);
    PyMem_Free(mine);
    return out;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS, "Set the window's directions, sides and the details' tags."},
    {"movement", movement, METH_VARARGS, "The movement phase's moves of a seat: {move text: detail}."},
    {NULL, NULL, 0, NULL},
};

ENGINE_MODULE(_quatre_moves, "Quatre en ligne's movement moves, in C.")
