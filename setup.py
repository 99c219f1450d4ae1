"""The one compiled part of Ludo; everything else is in pyproject.toml.

Quatre en ligne's movement moves in C (games/engines/karo/_quatre_moves.c). Optional:
without a C compiler and Python's headers the build goes on without it, and
games/engines/karo/quatre_en_ligne.py uses its Python function, the reference.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "games.engines.karo._quatre_moves",
            sources=["games/engines/karo/_quatre_moves.c"],
            optional=True,
        ),
    ],
)
