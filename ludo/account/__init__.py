"""My account: one page of a person's own bookings, games, tokens and preferences,
the email change confirmed by a link, password reset, the export of their data and
the deletion of their account. Not an app of its own (no models): the Profile is
ludo.models', bookings and tables are read from their apps and changed only
through those apps' services.

- history.py   my bookings (upcoming, past) and my games (running, finished)
- export.py    everything stored about me, as JSON (never a token's secret)
- deletion.py  delete my account: its data anonymised, its row emptied
- email_change.py   the signed link sent to a new address (asked with the password)
- address.py   the link confirming the account's address (sign-up, or asked again)
- credentials.py   what a password or address change ends (older tokens, sockets)
- mail.py   the account's emails sent through the outbox (confirmation, password notice)
- mail_limits.py   how many reset and confirmation emails an address may cause
- forms.py   language, address, deletion
- views.py, urls.py   the pages (/compte/..., /en/account/...)
"""
