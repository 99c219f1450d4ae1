"""Drumlin: the rules engine (slug ``drumlin``). See rules.py and docs/notation.md."""

from .rules import RULES, START_BOARD, DrumlinRules
from .state import State

__all__ = ["RULES", "START_BOARD", "DrumlinRules", "State"]
