"""Sessions pages: look up, check permission, call a service, render.

Guests (``guests``): the list of upcoming sessions, a session's page with its
booking form; (``booking_link``) the booking page reached from an emailed link
(no account needed) and lost links sent again; (``confirm_pages``) the links
confirming a visitor's booking or proposal. Hosts: the week and month
calendar (``hosts_calendar``), a session's bookings (approve, decline, who
came, CSV export, copies, live table: ``hosts_session``), new sessions and
recurring rules (``hosts_new``). Both: proposals (``proposal_pages``: the
guests' form and status, the hosts' decision) and calendar feeds (``feeds``).
What they share is in ``common``. ``urls.py`` names each view through this
package.
"""

from games.bookings.views.booking_link import booking_ics, manage, resend_links
from games.bookings.views.common import hosts_only
from games.bookings.views.confirm_pages import confirm, confirm_proposal
from games.bookings.views.feeds import host_feed, my_feed, public_feed
from games.bookings.views.guests import check_email, session_detail, session_list
from games.bookings.views.hosts_calendar import calendar
from games.bookings.views.hosts_new import new_series, new_session
from games.bookings.views.hosts_session import (
    export_csv,
    staff_booking,
    staff_cancel_session,
    staff_open_table,
    staff_release_copy,
    staff_reserve_copy,
    staff_session,
)
from games.bookings.views.proposal_pages import decide_proposal, proposal_status, proposals, propose

__all__ = [
    "booking_ics",
    "calendar",
    "check_email",
    "confirm",
    "confirm_proposal",
    "decide_proposal",
    "export_csv",
    "host_feed",
    "hosts_only",
    "manage",
    "my_feed",
    "new_series",
    "new_session",
    "proposal_status",
    "proposals",
    "propose",
    "public_feed",
    "resend_links",
    "session_detail",
    "session_list",
    "staff_booking",
    "staff_cancel_session",
    "staff_open_table",
    "staff_release_copy",
    "staff_reserve_copy",
    "staff_session",
]
