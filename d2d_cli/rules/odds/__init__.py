"""Exact odds of the next reveals from the deck as it stands (``exact``): conflicts, Hits,
Crits, dice and weather, each from the rules functions of the chapters below it; a
conflict between units of the session reads their Levels as ``d2d conflict`` does
(``sides``)."""
