"""The compiled parts of Ludo; everything else is in pyproject.toml.

Two move generators in C, for the two engines whose random playouts spend most of
their time generating moves: Quatre en ligne's movement phase
(games/engines/karo/_quatre_moves.c) and Drumlin's ordinary turn
(games/engines/drumlin/_drumlin_moves.c). Optional: without a C compiler and Python's
headers the build goes on without them, and each engine uses its Python function,
the reference that the tests compare them with.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "games.engines.karo._quatre_moves",
            sources=["games/engines/karo/_quatre_moves.c"],
            depends=["games/engines/native_module.h"],
            optional=True,
        ),
        Extension(
            "games.engines.drumlin._drumlin_moves",
            sources=["games/engines/drumlin/_drumlin_moves.c"],
            depends=["games/engines/native_module.h"],
            optional=True,
        ),
    ],
)
