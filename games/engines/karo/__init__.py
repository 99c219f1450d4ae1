"""The Karo box: three games for one set of square tiles and marked pieces.

Rampants et Sauteurs, Éclaircissement and Quatre en ligne share their geometry
(``geometry``) and their turn rules (``common``: passing, both stuck, repetition,
the starting player); each game has its own module.
"""

from .eclaircissement import RULES as ECLAIRCISSEMENT
from .quatre_en_ligne import RULES as QUATRE_EN_LIGNE
from .rampants_sauteurs import RULES as RAMPANTS_SAUTEURS

RULES = (RAMPANTS_SAUTEURS, ECLAIRCISSEMENT, QUATRE_EN_LIGNE)
