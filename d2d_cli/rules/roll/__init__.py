"""Dice beyond the Fate deck. Not a chapter of 000/001: d2d's own dice and deck notation,
rolled or read as an exact distribution (``notation``, docs/rules.md "Dice notation"),
whose card terms reveal from the Fate deck of 000 "Reference > Fate" (its
"Randomizing" is ``rules.deck.dice``); and neighbouring systems' procedures as data
(``systems``; the seeds' 002–004 texts)."""
