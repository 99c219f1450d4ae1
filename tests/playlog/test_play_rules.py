"""Every rule a play follows (catalog/playlog/rules.py), through the service that
saves it: a refused play says why, and writes nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from catalog.playlog import services
from catalog.playlog.models import Play, Player
from catalog.playlog.rules import PlayRefused, Seat
from catalog.playlog.services import Author
from ludo.typography import french as typeset
from tests.playlog.conftest import entry

pytestmark = pytest.mark.django_db


def refused(author, made) -> list[str]:
    with pytest.raises(PlayRefused) as caught:
        services.log_play(author, made)
    assert Play.objects.count() == 0 and Player.objects.count() == 0
    return [p.message for p in caught.value.problems]


def test_it_saves_a_play_with_players_winner_scores_and_note(bob, ticket):
    play = services.log_play(Author(bob), entry(ticket, ("Bob", 120, True), ("Anne", 98, False), note=" Belle partie "))
    assert play.logged_by == bob and play.game == ticket and play.note == "Belle partie"
    assert [(p.name, p.score, p.won) for p in play.players.all()] == [("Bob", 120, True), ("Anne", 98, False)]


def test_it_saves_a_play_without_scores_and_several_winners(bob, ticket):
    play = services.log_play(Author(bob), entry(ticket, ("Bob", None, True), ("Anne", None, True), ("Léo", None, False)))
    assert [p.won for p in play.players.all()] == [True, True, False]


def test_it_refuses_a_play_in_the_future(bob, ticket):
    tomorrow = timezone.localdate() + timedelta(days=1)
    assert any("futur" in m for m in refused(Author(bob), entry(ticket, ("Bob", None, True), day=tomorrow)))


def test_it_accepts_today_and_the_past(bob, ticket):
    services.log_play(Author(bob), entry(ticket, ("Bob", None, True), day=timezone.localdate()))
    services.log_play(Author(bob), entry(ticket, ("Bob", None, True), day=timezone.localdate() - timedelta(days=400)))
    assert Play.objects.count() == 2


def test_it_refuses_a_player_named_twice_whatever_the_case_accents_and_spaces(bob, ticket):
    messages = refused(Author(bob), entry(ticket, ("Hélène", None, True), ("  helene ", None, False)))
    assert messages == [typeset("helene est nommé deux fois : chaque joueur une seule fois.")]


def test_it_refuses_an_account_named_twice(bob, ticket):
    messages = refused(Author(bob), entry(ticket, Seat("Bob", None, True, bob.pk), Seat("Bobby", None, False, bob.pk)))
    assert any("ce compte joue déjà" in m for m in messages)


def test_it_refuses_a_play_without_players(bob, ticket):
    assert refused(Author(bob), entry(ticket, ("", None, False), ("  ", None, False))) == ["Nommez au moins un joueur."]


def test_it_refuses_a_winner_who_is_not_a_player(bob, ticket):
    messages = refused(Author(bob), entry(ticket, ("Bob", None, False), ("", None, True)))
    assert typeset("Un gagnant doit être l’un des joueurs : donnez son nom.") in messages


def test_it_refuses_a_score_without_a_player(bob, ticket):
    assert "Un score a besoin du nom de la personne qui l’a fait." in refused(
        Author(bob), entry(ticket, ("Bob", 3, True), ("", 5, False)))


def test_it_refuses_a_negative_score_unless_the_game_has_them(bob, ticket):
    messages = refused(Author(bob), entry(ticket, ("Bob", 3, True), ("Anne", -2, False)))
    assert messages == [
        typeset("Anne : un score sous zéro. Si ce jeu en a, cochez « les scores peuvent passer sous zéro ».")]
    play = services.log_play(Author(bob), entry(ticket, ("Bob", 3, True), ("Anne", -2, False), negative_scores=True))
    assert play.negative_scores


@pytest.mark.parametrize("score", [10_000, -10_000, 2_000_000_000])
def test_it_refuses_absurdly_large_scores(bob, ticket, score):
    messages = refused(Author(bob), entry(ticket, ("Bob", score, False), ("Anne", 0, False), negative_scores=True))
    assert len(messages) == 1 and "Une faute de frappe" in messages[0]


def test_it_accepts_the_largest_believable_score(bob, ticket):
    services.log_play(Author(bob), entry(ticket, ("Bob", 9999, True), ("Anne", -9999, False), negative_scores=True))


def test_it_refuses_a_winner_without_the_best_score(bob, ticket):
    messages = refused(Author(bob), entry(ticket, ("Bob", 80, True), ("Anne", 95, False)))
    assert messages == [typeset(
        "Bob a gagné avec 80, mais le meilleur score est 95 : avec des scores, un gagnant a le meilleur score.")]


def test_the_lowest_score_wins_when_the_play_says_so(bob, ticket):
    assert refused(Author(bob), entry(ticket, ("Bob", 12, True), ("Anne", 30, False), lowest_wins=False))
    play = services.log_play(Author(bob), entry(ticket, ("Bob", 12, True), ("Anne", 30, False), lowest_wins=True))
    assert play.lowest_wins


def test_a_tie_broken_by_the_game_leaves_one_of_the_best_scores_without_the_win(bob, ticket):
    play = services.log_play(Author(bob), entry(ticket, ("Bob", 50, True), ("Anne", 50, False)))
    assert [p.won for p in play.players.all()] == [True, False]


def test_with_scores_and_no_winner_ticked_the_best_scores_win(bob, ticket):
    play = services.log_play(Author(bob), entry(ticket, ("Bob", 40, False), ("Anne", 52, False), ("Léo", 52, False)))
    assert [p.won for p in play.players.all()] == [False, True, True]


def test_it_refuses_scores_for_some_players_only(bob, ticket):
    assert refused(Author(bob), entry(ticket, ("Bob", 40, True), ("Anne", None, False))) == [
        "Donnez un score à chaque joueur, ou à aucun."]


def test_it_asks_who_won_without_scores(bob, ticket):
    assert refused(Author(bob), entry(ticket, ("Bob", None, False), ("Anne", None, False))) == [
        typeset("Cochez qui a gagné (plusieurs s’ils ont gagné ensemble), ou « personne n’a gagné ».")]


def test_nobody_won_is_a_result_of_its_own_and_never_with_a_winner(bob, ticket):
    play = services.log_play(Author(bob), entry(ticket, ("Bob", None, False), ("Anne", None, False), nobody_won=True))
    assert not any(p.won for p in play.players.all())
    Play.objects.all().delete()
    assert refused(Author(bob), entry(ticket, ("Bob", None, True), ("Anne", None, False), nobody_won=True)) == [
        typeset("« Personne n’a gagné » est coché, et un gagnant aussi : choisissez.")]


def test_it_refuses_a_play_without_a_game_or_day_and_says_everything_at_once(bob):
    made = entry(None, ("Bob", None, False))
    made = type(made)(None, None, made.seats)
    messages = refused(Author(bob), made)
    assert messages[:2] == ["Choisissez le jeu dans la liste.", "Donnez le jour de la partie."]
    assert len(messages) == 3  # and who won


def test_it_refuses_a_game_that_does_not_exist(bob, ticket):
    made = entry(ticket, ("Bob", None, True))
    made = type(made)(ticket.pk + 1000, made.played_on, made.seats)
    assert refused(Author(bob), made) == ["Choisissez le jeu dans la liste."]


def test_it_refuses_too_long_a_note_or_name_and_too_many_players(bob, ticket):
    assert refused(Author(bob), entry(ticket, ("Bob", None, True), note="x" * 1001)) == [
        typeset("La note est trop longue : 1000 caractères au plus.")]
    assert refused(Author(bob), entry(ticket, ("B" * 61, None, True))) == ["Un nom a 60 caractères au plus."]
    many = [(f"Joueur {i}", None, i == 0) for i in range(31)]
    assert refused(Author(bob), entry(ticket, *many)) == ["Au plus 30 joueurs dans une partie."]


def test_an_anonymous_visitor_cannot_log_a_play(db, ticket):
    with pytest.raises(PermissionDenied):
        services.log_play(Author(), entry(ticket, ("Bob", None, True)))
    assert Play.objects.count() == 0


def test_a_guest_logs_with_the_link_of_a_confirmed_booking_of_a_started_session(carol, ticket, session_today):
    play = services.log_play(carol, entry(ticket, ("Carol", None, True)))
    assert play.booking == carol.booking and play.session == session_today and play.logged_by is None


def test_a_cancelled_booking_or_a_session_not_started_gives_no_right_to_log(alice, ticket, carol_booking):
    from games.bookings import services as bookings

    future = bookings.create_session(alice, starts_at=timezone.now() + timedelta(days=3),
                                     ends_at=timezone.now() + timedelta(days=3, hours=2), capacity=5)
    early = bookings.book(future.pk, name="Eve", email="eve@example.org", seats=1)
    with pytest.raises(PermissionDenied):
        services.log_play(Author(None, early), entry(ticket, ("Eve", None, True)))
    carol_booking.status = carol_booking.Status.CANCELLED
    carol_booking.save()
    with pytest.raises(PermissionDenied):
        services.log_play(Author(None, carol_booking), entry(ticket, ("Carol", None, True)))
    assert Play.objects.count() == 0


def test_the_author_changes_and_deletes_their_play_others_cannot_hosts_can(alice, bob, dave, ticket, azul):
    play = services.log_play(Author(bob), entry(ticket, ("Bob", None, True)))
    with pytest.raises(PermissionDenied):
        services.change_play(play.pk, Author(dave), entry(azul, ("Dave", None, True)))
    with pytest.raises(PermissionDenied):
        services.delete_play(play.pk, Author(dave))
    services.change_play(play.pk, Author(bob), entry(azul, ("Bob", None, True), ("Anne", None, False)))
    play.refresh_from_db()
    assert play.game == azul and play.players.count() == 2
    services.change_play(play.pk, Author(alice), entry(azul, ("Bob", None, False), ("Anne", None, True)))
    assert [p.won for p in Play.objects.get().players.all()] == [False, True]
    services.delete_play(play.pk, Author(alice))
    assert Play.objects.count() == 0


def test_a_refused_change_leaves_the_play_as_it_was(bob, ticket):
    play = services.log_play(Author(bob), entry(ticket, ("Bob", 10, True), ("Anne", 5, False)))
    with pytest.raises(PlayRefused):
        services.change_play(play.pk, Author(bob), entry(ticket, ("Bob", 10, True), ("bob", 5, False)))
    assert [(p.name, p.score, p.won) for p in Play.objects.get().players.all()] == [("Bob", 10, True), ("Anne", 5, False)]


def test_a_guest_changes_only_the_plays_of_their_own_booking(carol, bob, ticket):
    theirs = services.log_play(carol, entry(ticket, ("Carol", None, True)))
    other = services.log_play(Author(bob), entry(ticket, ("Bob", None, True)))
    services.change_play(theirs.pk, carol, entry(ticket, ("Carol", None, False), ("Zoé", None, True)))
    with pytest.raises(PermissionDenied):
        services.change_play(other.pk, carol, entry(ticket, ("Carol", None, True)))
    services.delete_play(theirs.pk, carol)
    assert list(Play.objects.all()) == [other]
