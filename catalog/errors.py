"""The one error of the catalogue's actions, shared by every room."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.exceptions import ValidationError


class CatalogError(ValueError):
    """An action refused, with the reason in plain words."""


def full_clean(obj, exclude: Iterable[str] | None = None) -> None:
    """Validate a model instance, its errors raised as one CatalogError."""
    try:
        obj.full_clean(exclude=list(exclude or []))
    except ValidationError as exc:
        raise CatalogError("; ".join(f"{k}: {' '.join(v)}" for k, v in exc.message_dict.items())) from None
