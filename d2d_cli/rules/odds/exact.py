"""Exact odds of the next reveals, from the deck as it stands (``d2d odds``): the names
callers know, each from its own module — the reveal walk (``walk``: :class:`Piles`,
:func:`reveal_odds`) and one module per kind of odds (``conflict``, ``hits``, ``dice``,
``weather``, ``crit``). Importing from here or from the module itself is the same."""

from __future__ import annotations

from d2d_cli.rules.core.probability import Probability
from d2d_cli.rules.odds.conflict import (
    ConflictOdds,
    CoveredConflictOdds,
    ObstacleRow,
    conflict_odds,
)
from d2d_cli.rules.odds.crit import CritOdds, LocationRow, SeverityRow, crit_odds
from d2d_cli.rules.odds.dice import MAX_DIE_STATES, DieOdds, ValueRow, die_odds
from d2d_cli.rules.odds.hits import MAX_HAND, HitsOdds, HitsRow, hits_odds
from d2d_cli.rules.odds.walk import (
    MAX_REVEALS,
    MAX_STATES,
    DeckView,
    Key,
    Piles,
    Step,
    oriented,
    reveal_odds,
)
from d2d_cli.rules.odds.weather import DirectionRow, SpeedRow, WeatherOdds, weather_odds

__all__ = [
    "MAX_DIE_STATES", "MAX_HAND", "MAX_REVEALS", "MAX_STATES",
    "ConflictOdds", "CoveredConflictOdds", "CritOdds", "DeckView", "DieOdds",
    "DirectionRow", "HitsOdds", "HitsRow", "Key", "LocationRow", "ObstacleRow", "Piles",
    "Probability", "SeverityRow", "SpeedRow", "Step", "ValueRow", "WeatherOdds",
    "conflict_odds", "crit_odds", "die_odds", "hits_odds", "oriented", "reveal_odds",
    "weather_odds",
]
