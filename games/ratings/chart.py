"""A player's rating history as a small inline SVG (no script): a line
through the ratings after each rated game, the first point being the rating
before the first one."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.formats import number_format
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


def chart(values: Sequence[float], label: str, width: int = 320, height: int = 90) -> SafeString:
    """The larger chart of a profile: the line, with the highest and lowest
    ratings written at its left (numbers in the page's language)."""
    if len(values) < 2:
        return SafeString("")
    gutter = 48
    pairs = (p.split(",") for p in points(values, width - gutter, height).split())
    line = " ".join(f"{float(x) + gutter:.1f},{y}" for x, y in pairs)
    high, low = (number_format(round(v), force_grouping=True) for v in (max(values), min(values)))
    return format_html(
        '<svg class="rating-chart large" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" '
        'aria-label="{label}"><line x1="{g}" y1="{pad}" x2="{g}" y2="{bottom}" class="axis"/>'
        '<text x="{tx}" y="{top}" text-anchor="end">{high}</text>'
        '<text x="{tx}" y="{bottom}" text-anchor="end">{low}</text>'
        '<polyline fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round" '
        'points="{line}"/></svg>',
        w=width, h=height, label=label, g=gutter, pad=PAD, bottom=height - PAD, tx=gutter - 6, top=PAD + 10,
        high=high, low=low, line=line,
    )
