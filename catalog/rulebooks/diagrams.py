"""Small SVG board diagrams for the rules pages, drawn on the server from an engine's
spectator view of a position: ``games.engines.get(slug).parse_position(text)`` then
``.view(state, None)``. The engines own the rules; this module only draws.

The SVG uses presentation attributes and classes only (no style attributes, no
script), so it passes the site's content security policy when inlined.
"""

from __future__ import annotations

import logging
from html import escape

from games import engines

log = logging.getLogger(__name__)

CELL = 28
MARGIN = 18
SEAT_FILL = ("#7a3b8f", "#f3c2d6")  # violet / pink (Drumlin); Karo: dark / light pieces
SEAT_STROKE = ("#3d1d48", "#a0416a")


class DiagramError(ValueError):
    """A position the engine refused, or a game we cannot draw."""


def _svg(width: int, height: int, body: list[str], label: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'role="img" aria-label="{escape(label)}" class="board-diagram">' + "".join(body) + "</svg>"
    )


def _grid(files: int, ranks: int, tiles: set[tuple[int, int]] | None, body: list[str], file_labels: bool = True) -> None:
    for y in range(ranks):
        for x in range(files):
            if tiles is not None and (x, y) not in tiles:
                continue
            px, py = MARGIN + x * CELL, MARGIN + (ranks - 1 - y) * CELL
            shade = "#efe6d2" if (x + y) % 2 else "#f8f3e8"
            body.append(f'<rect x="{px}" y="{py}" width="{CELL}" height="{CELL}" fill="{shade}" stroke="#c9bfa8" stroke-width="0.8"/>')
    if file_labels:
        for x in range(files):
            body.append(f'<text x="{MARGIN + x * CELL + CELL / 2}" y="{MARGIN + ranks * CELL + 12}" font-size="9" text-anchor="middle" fill="#5b6470">{chr(97 + x)}</text>')
        for y in range(ranks):
            body.append(f'<text x="{MARGIN - 5}" y="{MARGIN + (ranks - 1 - y) * CELL + CELL / 2 + 3}" font-size="9" text-anchor="end" fill="#5b6470">{y + 1}</text>')


def _drumlin(view: dict) -> tuple[int, int, list[str]]:
    board = view["board"]
    files, ranks = board["files"], board["ranks"]
    body: list[str] = []
    _grid(files, ranks, None, body)
    # The two base lines, behind each player's first row.
    width = files * CELL
    body.append(f'<rect x="{MARGIN}" y="{MARGIN + ranks * CELL}" width="{width}" height="3" fill="{SEAT_FILL[0]}"/>')
    body.append(f'<rect x="{MARGIN}" y="{MARGIN - 3}" width="{width}" height="3" fill="{SEAT_STROKE[1]}"/>')
    for square, info in board["squares"].items():
        x, y = ord(square[0]) - 97, int(square[1:]) - 1
        cx, cy = MARGIN + x * CELL + CELL / 2, MARGIN + (ranks - 1 - y) * CELL + CELL / 2
        if info.get("lone_drumlin"):
            body.append(f'<rect x="{cx - 4}" y="{cy - 4}" width="8" height="8" fill="#777" stroke="#333" stroke-width="0.8"><title>Drumlin</title></rect>')
            continue
        stack = info.get("stack", [])
        offsets = [(0, 0)] if len(stack) == 1 else [(-6, -6), (6, -6), (-6, 6), (6, 6)]
        for (dx, dy), piece in zip(offsets, stack):
            seat, kind = piece["seat"], piece["kind"]
            px, py = cx + dx, cy + dy
            r = 8 if len(stack) == 1 else 5.5
            fill, stroke = SEAT_FILL[seat], SEAT_STROKE[seat]
            if kind == "dragon":
                body.append(
                    f'<polygon points="{px},{py - r - 1} {px + r + 1},{py} {px},{py + r + 1} {px - r - 1},{py}" '
                    f'fill="{fill}" stroke="{stroke}" stroke-width="1.2"><title>{escape(kind)}</title></polygon>'
                )
            else:
                body.append(f'<circle cx="{px}" cy="{py}" r="{r}" fill="{fill}" stroke="{stroke}" stroke-width="1.2"><title>{escape(kind)}</title></circle>')
                if kind == "egg":
                    body.append(f'<circle cx="{px}" cy="{py}" r="{r / 2.4}" fill="#777"/>')
        if len(stack) > 1:
            body.append(f'<text x="{cx + CELL / 2 - 2}" y="{cy - CELL / 2 + 8}" font-size="7" text-anchor="end" fill="#1f2328">{info.get("value", "")}</text>')
    return files * CELL + 2 * MARGIN, ranks * CELL + 2 * MARGIN, body


def _karo(view: dict) -> tuple[int, int, list[str]]:
    board = view["board"]
    pieces = board.get("pieces", [])
    tiles = {(t["x"], t["y"]) for t in board.get("tiles", [])}
    if tiles:
        xs = [x for x, _ in tiles] + [p["x"] for p in pieces]
        ys = [y for _, y in tiles] + [p["y"] for p in pieces]
        min_x, min_y = min(xs), min(ys)
        tiles = {(x - min_x, y - min_y) for x, y in tiles}
        files, ranks = max(xs) - min_x + 1, max(ys) - min_y + 1
    else:
        min_x = min_y = 0
        files, ranks = board["files"], board["ranks"]
        tiles = None
    body: list[str] = []
    _grid(files, ranks, tiles, body, file_labels="files" in board)
    centre = board.get("centre")
    if centre:
        cx = MARGIN + (centre["x"] - min_x) * CELL + CELL / 2
        cy = MARGIN + (ranks - 1 - (centre["y"] - min_y)) * CELL + CELL / 2
        body.append(f'<circle cx="{cx}" cy="{cy}" r="9" fill="#ffe58a" stroke="#d8a400" stroke-width="1"><title>centre</title></circle>')
    for piece in pieces:
        x, y = piece["x"] - min_x, piece["y"] - min_y
        cx, cy = MARGIN + x * CELL + CELL / 2, MARGIN + (ranks - 1 - y) * CELL + CELL / 2
        seat = piece["owner"]
        fill = "#b3261e" if seat == 0 else "#ffffff"
        body.append(f'<circle cx="{cx}" cy="{cy}" r="10" fill="{fill}" stroke="#333" stroke-width="1.2"/>')
        if piece.get("circle") == "up":
            ring = "#ffffff" if seat == 0 else "#b3261e"
            body.append(f'<circle cx="{cx}" cy="{cy}" r="5" fill="none" stroke="{ring}" stroke-width="1.6"/>')
    return files * CELL + 2 * MARGIN, ranks * CELL + 2 * MARGIN, body


COLOUR_FILL = {"yellow": "#f2c12e", "red": "#c8372d", "black": "#222"}


def _drekki(view: dict) -> tuple[int, int, list[str]]:
    tile = view.get("tile")
    if not tile:
        raise DiagramError("no dragon tile in this position")
    body = [
        '<rect x="4" y="4" width="212" height="132" rx="10" fill="#fff7ea" stroke="#c2487a" stroke-width="2"/>',
        '<circle cx="26" cy="24" r="13" fill="#c8372d"/>',
        f'<text x="26" y="29" font-size="14" font-weight="bold" text-anchor="middle" fill="#fff">{int(tile["burns"])}</text>',
        f'<text x="204" y="28" font-size="11" text-anchor="end" fill="#5b6470">{escape(str(tile["auction"]))}</text>',
        '<text x="92" y="52" font-size="10" text-anchor="middle" fill="#5b6470">3–4</text>',
        '<text x="160" y="52" font-size="10" text-anchor="middle" fill="#5b6470">5–6</text>',
    ]
    for row, colour in enumerate(("yellow", "red", "black")):
        y = 72 + row * 22
        body.append(f'<circle cx="30" cy="{y - 4}" r="7" fill="{COLOUR_FILL[colour]}" stroke="#333" stroke-width="0.8"><title>{colour}</title></circle>')
        for column, key in ((92, "moves"), (160, "moves_5_6")):
            step = tile.get(key, {}).get(colour)
            text = "–" if step is None else (f"{step:+d}" if step else "0")
            body.append(f'<text x="{column}" y="{y}" font-size="13" text-anchor="middle" fill="#1f2328">{text}</text>')
    return 220, 140, body


DRAWERS = {"drumlin": _drumlin, "drekki": _drekki}


def render(slug: str, position: str, label: str = "", moves: str = "") -> str:
    """The SVG of ``position`` in game ``slug``, after ``moves`` (space-separated, each
    played by the seat to act) if any; DiagramError if it cannot be drawn."""
    try:
        rules = engines.get(slug)
    except KeyError as exc:
        raise DiagramError(str(exc)) from None
    try:
        state = rules.parse_position(position)
    except engines.PositionError as exc:
        raise DiagramError(f"{slug}: {exc}") from None
    for move in moves.split():
        seats = rules.to_act(state)
        if len(seats) != 1:
            raise DiagramError(f"{slug}: {move!r} cannot be played here (seats to act: {seats})")
        try:
            state = rules.play(state, seats[0], move)
        except engines.IllegalMove as exc:
            raise DiagramError(f"{slug}: {move!r}: {exc}") from None
    view = rules.view(state, None)
    width, height, body = DRAWERS.get(slug, _karo)(view)
    return _svg(width, height, body, label or rules.title)
