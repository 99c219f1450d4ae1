"""The precise answer to a request the table refuses, and reads that never mix
two versions: a race loser is told the version moved on (even when the winning
move ended the game), a taken seat is a taken seat, a lone surrogate is bad
text, a frame is built only from one version read consistently, and a replay
read while a game runs is not a corrupted log."""

from __future__ import annotations

import logging

import pytest

from games import engines, services
from games.models import Table
from games.protocol import TableError
from games.services import replays, snapshots
from tests.games.tables_helpers import guest, short_game

pytestmark = pytest.mark.django_db(transaction=True)

ZOE, MAX, ADA = guest("Zoé"), guest("Max"), guest("Ada")


def refused(code, call, *args, **kwargs) -> TableError:
    with pytest.raises(TableError) as caught:
        call(*args, **kwargs)
    assert caught.value.code == code, caught.value
    return caught.value


def started(slug: str = "eclaircissement") -> tuple[Table, dict[int, services.Who]]:
    table = services.create_table(ZOE, slug)
    services.join_table(table.pk, MAX)
    services.start_table(table.pk, ZOE)
    return Table.objects.get(pk=table.pk), {0: ZOE, 1: MAX}


def play_one(table_id: int, people: dict[int, services.Who]) -> int:
    table = Table.objects.get(pk=table_id)
    rules = engines.get(table.game)
    state = rules.load(table.state)
    seat = rules.to_act(state)[0]
    return services.play_move(table_id, people[seat], rules.legal_moves(state, seat)[0], table.version)


def test_the_loser_of_a_race_with_the_winning_move_is_told_the_version_moved_on():
    table, people = started("quatre-en-ligne")
    moves = short_game("quatre-en-ligne", 2, table.seed, decisive=True)
    for seat, move in moves[:-1]:
        services.play_move(table.pk, people[seat], move, Table.objects.get(pk=table.pk).version)
    before = Table.objects.get(pk=table.pk).version
    seat, last = moves[-1]
    services.play_move(table.pk, people[seat], last, before)
    assert Table.objects.get(pk=table.pk).is_over
    # The other seat's move, sent for the same version, lost the race.
    error = refused("stale_version", services.play_move, table.pk, people[1 - seat], last, before)
    assert error.data == {"v": before + 1}
    # Sent for the final version itself, it is the game that is over.
    refused("game_over", services.play_move, table.pk, people[1 - seat], last, before + 1)


def test_a_taken_seat_is_taken_even_when_the_table_is_full():
    table = services.create_table(ZOE, "drumlin")
    services.join_table(table.pk, MAX)
    refused("seat_taken", services.join_table, table.pk, ADA, 1)
    refused("table_full", services.join_table, table.pk, ADA)


@pytest.mark.parametrize("text", ["\ud800", "hello \udfff world", "\udc00\ud800"])
def test_a_lone_surrogate_in_chat_is_bad_text(text):
    table = services.create_table(ZOE, "drumlin")
    refused("bad_text", services.post_chat, table.pk, ZOE, text)
    assert services.chat_backlog(table.pk, "players") == []


def test_a_frame_is_built_only_from_a_version_read_consistently(monkeypatch):
    # Another process commits moves while this one reads a version: each of the
    # first reads sees the log and the table at different versions.
    table, people = started()
    seat_rows = snapshots._seat_rows
    interrupted = []

    def moves_meanwhile(pk):
        if len(interrupted) < 3:
            interrupted.append(play_one(pk, people))
        return seat_rows(pk)

    monkeypatch.setattr(snapshots, "_seat_rows", moves_meanwhile)
    start = table.version
    snap = services.snapshot(table.pk, ZOE, since=start)
    assert len(interrupted) == 3
    current = Table.objects.get(pk=table.pk)
    assert snap["v"] == current.version == start + 3
    assert [e["v"] for e in snap["events"]] == [start + 1, start + 2, start + 3]
    rules = engines.get(current.game)
    assert snap["view"] == rules.view(rules.load(current.state), 0)


def test_a_frame_read_that_never_settles_falls_back_to_one_consistent_read(monkeypatch):
    table, people = started()
    seat_rows = snapshots._seat_rows
    moves = []

    def moves_meanwhile(pk):
        if not snapshots._consistent_reads.get():
            moves.append(play_one(pk, people))
        return seat_rows(pk)

    monkeypatch.setattr(snapshots, "_seat_rows", moves_meanwhile)
    snap = services.snapshot(table.pk, ZOE, since=table.version)
    assert moves and snap["v"] == table.version + len(moves)
    assert snap["events"][-1]["v"] == snap["v"]
    assert [e["v"] for e in snap["events"]] == list(range(table.version + 1, snap["v"] + 1))


def test_replaying_a_running_game_while_moves_land_is_no_false_alarm(monkeypatch, caplog):
    table, people = started()
    play_one(table.pk, people)
    seats = replays._seats

    def moves_meanwhile(found):
        play_one(found.pk, people)
        return seats(found)

    monkeypatch.setattr(replays, "_seats", moves_meanwhile)
    with caplog.at_level(logging.ERROR, logger="games"):
        replayed = services.replay(table.pk, ZOE)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert replayed["steps"][-1]["v"] == replayed["v"]


def test_a_log_that_does_not_replay_to_the_stored_state_is_still_an_alarm(caplog):
    table, people = started()
    play_one(table.pk, people)
    rules = engines.get(table.game)
    first = rules.dump(rules.new_game(table.seat_count, seed=table.seed, options=table.options))
    Table.objects.filter(pk=table.pk).update(state=first)  # the stored state lost the move
    with caplog.at_level(logging.ERROR, logger="games"):
        services.replay(table.pk, ZOE)
    assert any("does not replay" in r.getMessage() for r in caplog.records)
