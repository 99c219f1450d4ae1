"""Drekki (Lud'Act, 2019): mages bid on the total of secret cards as a horde of dragons passes.

3 to 6 players, and the 2-player variant (the "duel") where each player runs two
mages. The rule readings follow the project's RULES.md; the dragon tile faces
come from ``tiles.json``, a reconstruction until the printed tiles are copied.
"""

from .rules import DrekkiRules
from .state import DrekkiState
from .tiles import TILESET, TileDataError

RULES = DrekkiRules()

__all__ = ["RULES", "TILESET", "DrekkiRules", "DrekkiState", "TileDataError"]
