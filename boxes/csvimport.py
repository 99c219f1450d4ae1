"""Contents from a CSV file: ``game,group,label,quantity,essential`` (a header
row; ``game`` is a slug or a title of the catalogue, ``essential`` is 1/yes/oui or
empty). Each game's rows replace that game's template, in one transaction per
game: a bad row is reported with its line number and skips only its game, the
other games are imported; a game the file does not name is left as it was."""

from __future__ import annotations

import csv
import io
from collections import OrderedDict
from dataclasses import dataclass, field

from boxes import contents
from boxes.counting import find_game
from boxes.errors import BoxError

COLUMNS = ("game", "group", "label", "quantity", "essential")
TRUE = {"1", "yes", "oui", "true", "x"}


@dataclass
class Report:
    games: int = 0
    items: int = 0
    errors: list[str] = field(default_factory=list)

    def summary(self) -> str:
        text = f"boxes: contents of {self.games} game(s) imported ({self.items} items)"
        if self.errors:
            text += f", {len(self.errors)} problem(s)"
        return text


def import_text(text: str) -> Report:
    report = Report()
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    missing = [c for c in ("game", "label", "quantity") if c not in (reader.fieldnames or [])]
    if missing:
        report.errors.append(f"the header lacks {', '.join(missing)} (columns: {', '.join(COLUMNS)})")
        return report
    by_game: OrderedDict[str, list[tuple[int, dict]]] = OrderedDict()
    for row in reader:
        by_game.setdefault((row.get("game") or "").strip(), []).append((reader.line_num, row))
    for name, rows in by_game.items():
        game = find_game(name)
        if game is None:
            report.errors.append(f"line {rows[0][0]}: no single game of the catalogue is called {name!r}")
            continue
        lines, bad = [], []
        for line_num, row in rows:
            quantity = (row.get("quantity") or "").strip()
            if not quantity.isdigit():
                bad.append(f"line {line_num}: quantity {quantity!r} is not a whole number")
                continue
            lines.append(contents.Line((row.get("group") or "").strip(), (row.get("label") or "").strip(),
                                       int(quantity), (row.get("essential") or "").strip().lower() in TRUE))
        if not bad:
            try:
                contents.set_game_items(game, lines)
            except BoxError as exc:
                bad.append(f"line {rows[0][0]} and after: {exc}")
        if bad:
            report.errors.extend(f"{name}: {b}" for b in bad)
            continue
        report.games += 1
        report.items += len(lines)
    return report


def import_file(path) -> Report:
    with open(path, encoding="utf-8-sig", newline="") as handle:
        return import_text(handle.read())
