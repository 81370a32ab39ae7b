"""Exact odds of the next reveals from the deck as it stands. The rule books have no
chapter of odds: these are the chances of the chapters below, computed by their own
functions. ``walk`` is the reveal walk every kind of odds runs on (the deck as odds may
know it, ``Piles``); one module per kind of odds gives it its procedure: ``conflict``
(001 p.28 "Conflict", with Advantage and the cover-target reveal), ``hits`` (001 p.31
"Hits"), ``crit`` (001 p.33–35 "Crits"), ``dice`` (000 "Reference > Fate >
Randomizing": cards read as dice) and ``weather`` (000 "Weather"). ``exact`` re-exports
them all under the names callers know. A conflict between units of the session reads
their Levels as ``d2d conflict`` does (``sides``)."""
