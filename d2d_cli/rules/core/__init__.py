"""The rules' machinery, no chapter of its own: the cheap value types every result is made of
(``record``), typed results and their JSON (``result``), the session's ``[rules]`` options —
the "à la carte rules" of 001's Features (``options``) — and exact probabilities
(``probability``)."""
