"""API tokens: guest tokens (``POST /api/guest``) and personal tokens of accounts.

A token stands for a person on the JSON API and the sockets, exactly as a
session does on the pages: it resolves to the same ``games.services.Who``.
Only a SHA-256 digest of each token is stored. docs/api.md is the client's
side of it.
"""
