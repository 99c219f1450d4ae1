"""The project's whole-number path converter: ``<num:pk>``.

Django's ``<int:...>`` takes any run of digits, so ``/api/tables/99999999999999999999999/join/``
reached a database lookup with a number no integer column holds (a 500 on SQLite
and PostgreSQL). ``num`` takes 1 to 18 digits (below 2**63, the largest id a
column holds): a longer number is no match, a 404 like any unknown address.
Registered by ludo.apps; every URL pattern of the project uses it instead of ``int``
(tests/ludo/test_out_of_range.py checks).
"""

from __future__ import annotations

MAX_DIGITS = 18


class NumberConverter:
    regex = f"[0-9]{{1,{MAX_DIGITS}}}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value) -> str:
        return str(int(value))
