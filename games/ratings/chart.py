"""A player's rating history as a small inline SVG (no script): a line
through the ratings after each rated game, the first point being the rating
before the first one."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import format_html
from django.utils.safestring import SafeString

WIDTH, HEIGHT, PAD = 240, 60, 4


def points(values: Sequence[float], width: int = WIDTH, height: int = HEIGHT, pad: int = PAD) -> str:
    """The polyline's points: values spread left to right, the highest at the top."""
    if not values:
        return ""
    low, high = min(values), max(values)
    span = max(high - low, 1.0)
    step = (width - 2 * pad) / max(len(values) - 1, 1)
    coords = []
    for i, value in enumerate(values):
        x = pad + i * step
        y = pad + (high - value) / span * (height - 2 * pad)
        coords.append(f"{x:.1f},{y:.1f}")
    return " ".join(coords)


def sparkline(values: Sequence[float], label: str, width: int = WIDTH, height: int = HEIGHT) -> SafeString:
    """The chart, described by ``label`` for screen readers (escaped here)."""
    if len(values) < 2:
        return SafeString("")
    line = points(values, width, height)
    last = line.rsplit(" ", 1)[-1].split(",")
    return format_html(
        '<svg class="rating-chart" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" '
        'aria-label="{label}"><polyline fill="none" stroke="currentColor" stroke-width="2" '
        'vector-effect="non-scaling-stroke" stroke-linejoin="round" points="{line}"/>'
        '<circle cx="{x}" cy="{y}" r="3" fill="currentColor"/></svg>',
        w=width, h=height, label=label, line=line, x=last[0], y=last[1],
    )
