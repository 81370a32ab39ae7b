"""Dice beyond the Fate deck: d2d's dice and deck notation, rolled or read as an exact
distribution (``notation``, docs/rules.md "Dice notation"), and neighbouring systems'
procedures as data (``systems``; the seeds' 002–004 texts)."""
