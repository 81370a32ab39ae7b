"""Conflict and damage (001 p.28 "Conflict", p.31 "Hits", p.33–35 "Crits"; 000 "Conflict",
"Damage"): each side's Level and situational modifiers (``situation``), the approach chart
(``conflict``), Hits and combos (``hits``), Crits with their location, armor and
severity (``crits``), the Damage Modifiers with the gear they read (``damage``), and what a
roll reads from the round — cover, range, the Target's Action (``remembered``) — and the
last exchange, for hit and crit to default to (``exchange``)."""
