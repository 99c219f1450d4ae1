"""Moves in words: the table page's describers (static/js/table/describe*.js) run under
node over moves of random games played through the engines, so every kind of move of
every game shows up, in English and in French.

Each case is what the page has when it lists a move: the move in the notation (or
null when it is a secret to the viewer), the seat that played it, the names of the
seats, the viewer's view after it and before it. A description must be a sentence that
names the player, says the squares (or cards, bids) the move names, and shows none of
the notation's own words or signs; the French one comes from the djangojs catalogue
(every sentence translated) and differs from the English one.
"""

from __future__ import annotations

import gettext
import json
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from games import engines
from ludo.typography import french as typeset

ROOT = Path(__file__).resolve().parents[2]
RUNNER = Path(__file__).with_name("describe_moves.mjs")
NAMES = ["Ben", "Zoé", "Ana", "Léo", "Mia", "Tom"]

# (game, seats) tables played, and how many random games of each.
TABLES = [
    ("drumlin", 2, 12),
    ("rampants-sauteurs", 2, 12),
    ("eclaircissement", 2, 12),
    ("quatre-en-ligne", 2, 12),
    ("drekki", 2, 2),
    ("drekki", 3, 1),
    ("drekki", 5, 1),
]
MAX_PLIES = 220

# The kinds of move of each game, read from the notation (docs/notation.md).
SQ = r"[a-h](?:10|[1-9])"
XY = r"-?\d+,-?\d+"
KINDS = {
    "drumlin": {
        "elephant": rf"E{SQ}-{SQ}",
        "dragon": rf"D{SQ}-{SQ}",
        "exchange": rf"EE{SQ}=D{SQ}",
        "departure": rf"O{SQ}-{SQ}",
        "base": rf"O{SQ}-base",
        "stop": r"stop",
        "place": rf"\*{SQ}",
        "remove": rf"x{SQ}",
    },
    "rampants-sauteurs": {"layout": r"[CJ]{3}/[CJ]{3}", "step": r"[a-c][1-8]-[a-c][1-8]", "pass": "pass"},
    "eclaircissement": {"step": r"[a-e][1-5]-[a-e][1-5]", "stop": "stop"},
    "quatre-en-ligne": {"place": XY, "step": rf"{XY}>{XY}", "tile": rf"{XY}>{XY}:{XY}>{XY}"},
    "drekki": {
        "play": r"play \d",
        "top": r"top [AB][12]",
        "keep": r"keep \d",
        "bid": r"bid \d+",
        "withdraw": "withdraw",
        "colour": r"colour (yellow|red|black)",
        "burn": r"burn [AB][12]",
    },
}
# Words and signs of the notation that a description must not show.
NOTATION_WORDS = re.compile(r"\b(top [AB][12]|burn [AB][12]|keep \d|bid \d|play \d|colour [a-z]+|withdraw|stop|pass|close)\b|-base|[>=*]|\d:-?\d|\b[EDOx][a-h]\d|[a-h]\d+-[a-h]\d|\b[CJ]{3}/")


def kind_of(game: str, move: str) -> str:
    for kind, pattern in KINDS[game].items():
        if re.fullmatch(pattern, move):
            return kind
    raise AssertionError(f"{game}: no kind for {move!r}")


# Drumlin positions the random games reach too rarely (tests/games/test_drumlin_rules.py
# has them): pink's pieces on a1 cannot leave a square worth 5 and are removed; a
# departure onto violet's elephant on pink's first row goes on to the base line, or stops.
DRUMLIN_LINES = [
    ("7e/8/8/8/8/4*3/8/8/(DD)7/(Dde)(DD)5E p - std -", ["xa1"]),
    ("1(EE)4E1/8/8/8/8/4O3/8/8/8/E6e v - std -", ["Oe5-g10", "Og10-base"]),
    ("1(EE)4E1/8/8/8/8/4O3/8/8/8/E6e v - std -", ["Oe5-b10", "stop"]),
]


def extra_cases() -> list[dict]:
    rules = engines.get("drumlin")
    cases = []
    for text, moves in DRUMLIN_LINES:
        state = rules.parse_position(text)
        for move in moves:
            seat = rules.to_act(state)[0]
            after = rules.play(state, seat, move)
            cases.append(_case("drumlin", rules, state, after, seat, move, seat))
            state = after
    return cases


def _case(game, rules, before, after, seat, move, viewer):
    return {
        "game": game,
        "move": move,
        "seat": seat,
        "names": NAMES[: rules.num_players(after)],
        "view": rules.view(after, viewer),
        "before": rules.view(before, viewer),
    }


def generate_cases() -> list[dict]:
    cases = []
    for game, seats, count in TABLES:
        rules = engines.get(game)
        for seed in range(count):
            rng = random.Random(f"{game}-{seats}-{seed}")
            state = rules.new_game(seats, seed=seed)
            for _ in range(MAX_PLIES):
                if rules.outcome(state) is not None:
                    break
                seat = rng.choice(rules.to_act(state))
                move = rng.choice(rules.legal_moves(state, seat))
                after = rules.play(state, seat, move)
                # The mover sees its own move; in Drekki and the layouts of Rampants
                # et Sauteurs another seat does not: that case is described as hidden.
                cases.append(_case(game, rules, state, after, seat, move, seat))
                if game == "drekki" and move.split(" ")[0] in ("play", "top", "keep"):
                    hidden = _case(game, rules, state, after, seat, None, (seat + 1) % seats)
                    cases.append(hidden)
                if game == "rampants-sauteurs" and "/" in move:
                    cases.append(_case(game, rules, state, after, seat, None, None))
                state = after
    return cases + extra_cases()


def french_catalogue() -> dict[str, str]:
    mo = ROOT / "locale" / "fr" / "LC_MESSAGES" / "djangojs.mo"
    with mo.open("rb") as handle:
        catalogue = gettext.GNUTranslations(handle)._catalog  # noqa: SLF001 (the plain msgid -> msgstr map)
    return {key: value for key, value in catalogue.items() if isinstance(key, str) and key}


def run_node(cases: list[dict], catalogue: dict | None, tmp_path: Path) -> dict:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    source = tmp_path / f"cases-{'fr' if catalogue else 'en'}.json"
    source.write_text(json.dumps({"catalogue": catalogue, "cases": cases}))
    done = subprocess.run([node, str(RUNNER), str(source)], capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def described(tmp_path_factory):
    cases = generate_cases()
    tmp = tmp_path_factory.mktemp("describe")
    english = run_node(cases, None, tmp)
    french = run_node(cases, french_catalogue(), tmp)
    return cases, english, french


def test_every_kind_of_move_of_every_game_comes_up(described):
    cases, _, _ = described
    seen = {(case["game"], kind_of(case["game"], case["move"])) for case in cases if case["move"] is not None}
    wanted = {(game, kind) for game, kinds in KINDS.items() for kind in kinds}
    assert wanted <= seen, sorted(wanted - seen)
    assert ("drumlin", "remove") in seen


def test_captures_and_lit_pieces_are_said(described):
    """What the views add to the notation: a Drumlin taken by a move, a piece lit."""
    _, english, _ = described
    texts = english["texts"]
    assert any(text.endswith(", takes the Drumlin") for text in texts)
    assert any(text.endswith(" and is lit") or text.endswith(", lit on the centre") for text in texts)
    assert any(": dark piece " in text for text in texts) and any(": lit piece " in text for text in texts)


def _squares(move: str) -> list[str]:
    return re.findall(rf"{XY}|[a-h](?:10|[1-9])", move)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_each_move_is_a_sentence_in_words(described, language):
    cases, english, french = described
    texts = (english if language == "en" else french)["texts"]
    assert len(texts) == len(cases)
    for case, text in zip(cases, texts, strict=True):
        where = f"{case['game']} {case['move']!r} -> {text!r}"
        assert text and text.strip() == text, where
        name = case["names"][case["seat"]]
        assert name in text, where
        assert not NOTATION_WORDS.search(text), where
        move = case["move"]
        if move is None:
            continue
        assert text != move, where
        for square in _squares(move.split(" ")[0] if case["game"] == "drekki" else move):
            assert square in text, where
        if case["game"] == "drekki" and move.split(" ")[0] in ("play", "keep", "bid"):
            assert move.split(" ")[1] in text, where


def test_french_descriptions_are_translated(described):
    cases, english, french = described
    assert french["missing"] == []
    assert english["missing"] == []
    for case, en, fr in zip(cases, english["texts"], french["texts"], strict=True):
        assert en != fr, (case["game"], case["move"], en)


def test_known_sentences(tmp_path):
    """A few moves and the exact words they get, in both languages."""
    cases = [
        {"game": "drekki", "move": "bid 7", "seat": 0, "names": ["Ben", "Zoé"]},
        {"game": "drekki", "move": "withdraw", "seat": 1, "names": ["Ben", "Zoé"]},
        {"game": "drekki", "move": "top B1", "seat": 1, "names": ["Ben", "Zoé"]},
        {"game": "drekki", "move": "keep 4", "seat": 1, "names": ["Ben", "Zoé"]},
        {"game": "drumlin", "move": "Eb1-b4", "seat": 0, "names": ["Ben", "Zoé"]},
        {"game": "quatre-en-ligne", "move": "3,-2>5,0:4,1>5,0", "seat": 0, "names": ["Ben", "Zoé"]},
        {"game": "drumlin", "move": "Oe10-base", "seat": 0, "names": ["Ben", "Zoé"]},
        {"game": "rampants-sauteurs", "move": "pass", "seat": 1, "names": ["Ben", "Zoé"]},
        {"game": "rampants-sauteurs", "move": None, "seat": 1, "names": ["Ben", "Zoé"]},
        {"game": "drekki", "move": None, "seat": 0, "names": ["Ben", "Zoé"]},
    ]
    english = run_node(cases, None, tmp_path)["texts"]
    french = run_node(cases, french_catalogue(), tmp_path)["texts"]
    assert english == [
        "Ben bids 7",
        "Zoé withdraws",
        "Zoé lays the top card of pile B1 and draws two cards",
        "Zoé keeps the 4 and discards the other card face down",
        "Ben: elephant b1 → b4",
        "Ben moves the tile 3,-2 to 5,0; piece 4,1 steps onto it",
        "Ben sends the Drumlin from e10 onto the base line",
        "Zoé has no move and passes",
        "Zoé chooses a layout in secret",
        "Ben lays a card face down",
    ]
    assert french[:2] == ["Ben mise 7", "Zoé se retire"]
    assert french[4] == typeset("Ben : éléphant b1 → b4")
