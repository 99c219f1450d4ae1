"""The one error the booking services raise: a stable code, and a message for people."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

MESSAGES: dict[str, Any] = {
    # input
    "bad_name": _("Give a name of 2 to 100 characters."),
    "bad_email": _("Give a valid email address."),
    "bad_seats": _("A party is 1 to %(max)s people."),
    "bad_language": _("Unknown language."),
    "bad_capacity": _("A session has 1 to %(max)s seats."),
    "bad_times": _("A session must end after it starts, within 24 hours."),
    "bad_value": _("%(field)s: %(problem)s"),
    "time_missing": _("%(day)s at %(time)s does not exist in Paris: the clocks go forward from 2:00 to 3:00 that night. Choose another time."),
    "time_twice": _("%(day)s at %(time)s happens twice in Paris: the clocks go back from 3:00 to 2:00 that night. Say which one you mean."),
    "bad_rule": _("This recurring rule is not valid: %(problem)s"),
    "in_the_past": _("This time has already passed."),
    # booking
    "no_session": _("There is no such session."),
    "no_booking": _("There is no such booking."),
    "session_cancelled": _("This session has been cancelled."),
    "session_started": _("This session has already started."),
    "invitation_only": _("This session is by invitation only: use the link you were given."),
    "already_booked": _("This email address already has a booking for this session: use the link in your confirmation email to change it."),
    "party_too_large": _("This session has only %(capacity)s seats in all."),
    "party_too_large_unverified": _("Without an account, one booking is for at most %(max)s people. For a larger party, please contact the hosts."),
    "full": _("This session is full, and its waiting list too."),
    "full_no_waiting_list": _("This session is full (it has no waiting list)."),
    "not_enough_seats": _("Only %(free)s more seats are free."),
    "not_active": _("This booking is no longer active."),
    "too_late_to_cancel": _("Cancelling is no longer possible: this session needs %(hours)s hours' notice. Please contact the hosts."),
    "too_late_to_change": _("Changes are no longer possible: this session needs %(hours)s hours' notice. Please contact the hosts."),
    "no_changes_left": _("This booking has already been changed %(max)s times, the most allowed."),
    "nothing_changed": _("Nothing to change."),
    "cannot_change": _("Only a confirmed, pending or waiting booking can be changed."),
    "no_offer": _("There is no seat offer to accept on this booking."),
    "offer_expired": _("This offer has expired."),
    "not_pending": _("This booking is not waiting for approval."),
    "not_confirmed": _("Attendance is marked on confirmed bookings only."),
    "too_early_to_mark": _("Attendance can be marked from two hours before the start."),
    "capacity_below_booked": _("%(taken)s seats are already booked: the capacity cannot go below that."),
    "times_locked": _("People have booked this session: cancel it and create a new one rather than move it."),
    # links
    "bad_link": _("This link is not valid. Check that you copied all of it."),
    "expired_link": _("This link has expired. Every email we send carries a fresh one; ask for a new link below."),
    "confirm_expired": _("This confirmation link has expired: a booking or a proposal not confirmed within its deadline is dropped. Please make it again."),
    "stale_link": _("This link was replaced when the booking was changed. Use the link in the latest email."),
    # proposals
    "no_proposal": _("There is no such proposal."),
    "proposal_decided": _("This proposal has already been decided."),
    "capacity_below_party": _("The session needs at least the %(seats)s seats of the proposer's party."),
    # copies and tables
    "no_copy": _("There is no such copy."),
    "copy_wrong_game": _("This copy is not of a game on offer at this session."),
    "copy_unavailable": _("This copy is %(status)s at the moment."),
    "copy_unplayable": _("This box cannot be played: a count found a piece it cannot do without missing. Choose another copy, or replace the piece and count the box again."),
    "copy_taken": _("This copy is already reserved for another session at that time: %(other)s."),
    "copy_already_reserved": _("This copy is already reserved for this session."),
    "no_reservation": _("There is no such reservation."),
    "not_playable": _("None of this session's games can be played online here."),
    "no_one_booked": _("Nobody is booked yet."),
    "table_exists": _("A live table is already open for this session."),
    "table_failed": _("The live table could not be opened: %(reason)s"),
    "staff_only": _("Only the hosts can do that."),
}


class BookingError(ValueError):
    """An action refused, with the reason; nothing was changed."""

    def __init__(self, code: str, **params: Any) -> None:
        if code not in MESSAGES:
            raise KeyError(f"unknown booking error code {code!r}")
        self.code = code
        self.params = params
        super().__init__(code)

    @property
    def message(self) -> str:
        text = str(MESSAGES[self.code])
        return text % self.params if self.params else text

    def __str__(self) -> str:
        return self.message
