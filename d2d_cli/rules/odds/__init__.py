"""Exact odds of the next reveals from the deck as it stands (``exact``). The rule books
have no chapter of odds: these are the chances of the chapters below, computed by their
own functions — 001 p.28 "Conflict", p.31 "Hits", p.33–35 "Crits"; 000 "Reference >
Fate > Randomizing" (cards read as dice) and "Weather". A conflict between units of the
session reads their Levels as ``d2d conflict`` does (``sides``)."""
