"""The Fate deck and what a card means (000 "Reference > Fate", "Conflict > 1) Setup > Suits";
001 p.12 "Fate"): card notation and suits (``cards``), the shared 54-card deck and its reveals
(``fate``), Advantage and Disadvantage (000 l.423–424, ``advantage``), and reading cards as
dice, d2 … d108 (000 "Reference > Fate > Randomizing", ``dice``)."""
