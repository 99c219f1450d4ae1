"""Ratings (Glicko-2 per game), leaderboards and player profiles.

    glicko2   the rating system itself (pure)
    rules     who is rated in a finished game, and against whom (pure)
    eligibility  which accounts may play rated games (confirmed ones)
    service   a finished table rated, once, in the transaction that ends it
              (or by the worker's sweep when the move came from the event loop)
    privacy   what of a game's ratings a viewer sees (private profiles)
    chart     a player's rating history as a small inline SVG
    views     leaderboards and player profiles
"""
