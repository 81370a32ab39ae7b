"""The game itself, by chapter of the rule books: pure functions and small typed records, no
Typer, Rich, tomlkit or file I/O (the rules' tables come through ``d2d_cli.tables``).

Subpackages, lowest first (import-linter holds the order; see pyproject.toml):
``core`` (records, results, options, probability) · ``deck`` (cards, the Fate deck, dice
readings) and ``scale`` (stat notation, real quantities) · ``units`` (roster, conditions,
characters, abilities, powers, stealth) · ``combat`` (conflict, Hits, Crits), ``time``
(tasks, clock, rounds, turns, weather) and ``roll`` (dice notation, other systems) · ``odds``
· ``overview`` (scenes, dashboard, reference)."""
