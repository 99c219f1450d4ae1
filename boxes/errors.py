"""The one error of the boxes' actions."""

from __future__ import annotations


class BoxError(ValueError):
    """An action refused, with the reason in plain words (per item when ``items`` holds any)."""

    def __init__(self, message: str, items: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.items = items or {}


class StaleCount(BoxError):
    """Another host counted the box since this count began."""
