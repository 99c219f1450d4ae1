"""Glicko-2, as described in Mark Glickman's "Example of the Glicko-2 system"
(Boston University, 2013). A pure module: numbers in, numbers out.

A player has a rating (r, e.g. 1500), a rating deviation (RD, how unsure the
rating is) and a volatility (sigma, how erratic their results are). One rating
period holds every game played in it; ``update`` returns the player's new
rating, RD and volatility from their results against opponents as rated at the
start of the period. Results are 1 (win), 0.5 (draw) or 0 (loss).

The steps below carry the paper's numbers and names (mu, phi, v, delta, ...).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

SCALE = 173.7178  # the paper's conversion factor between the Glicko and Glicko-2 scales
DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
DEFAULT_VOLATILITY = 0.06
DEFAULT_TAU = 0.5  # the system constant: smaller values keep volatility from changing much
EPSILON = 0.000001  # the convergence tolerance of step 5


@dataclass(frozen=True)
class Rating:
    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY


@dataclass(frozen=True)
class Result:
    """One game of the period: the opponent as rated at its start, and the score (1, 0.5, 0)."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm as in the paper."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        bottom = 2.0 * (phi * phi + v + ex) ** 2
        return top / bottom - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(player: Rating, results: Iterable[Result], tau: float = DEFAULT_TAU) -> Rating:
    """The player's rating after one rating period with these results.

    With no results (a period without games) only the deviation grows (step 6)."""
    if not tau > 0:
        raise ValueError("tau must be positive")
    games = list(results)
    for game in games:
        if game.score not in (0, 0.5, 1):
            raise ValueError(f"a score is 0, 0.5 or 1, not {game.score!r}")
    # Step 2: to the Glicko-2 scale.
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not games:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, phi_star * SCALE, sigma)
    opponents = [((g.opponent.rating - DEFAULT_RATING) / SCALE, g.opponent.rd / SCALE, g.score)
                 for g in games]
    # Step 3: the estimated variance of the rating from the game outcomes alone.
    v_inverse = 0.0
    improvement = 0.0
    for mu_j, phi_j, score in opponents:
        g = _g(phi_j)
        e = _e(mu, mu_j, phi_j)
        v_inverse += g * g * e * (1.0 - e)
        improvement += g * (score - e)
    v = 1.0 / v_inverse
    # Step 4: the estimated improvement.
    delta = v * improvement
    # Step 5: the new volatility.
    sigma_new = _new_volatility(sigma, phi, v, delta, tau)
    # Step 6: the pre-period deviation.
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    # Step 7: the new deviation and rating.
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    # Step 8: back to the Glicko scale.
    return Rating(SCALE * mu_new + DEFAULT_RATING, SCALE * phi_new, sigma_new)
