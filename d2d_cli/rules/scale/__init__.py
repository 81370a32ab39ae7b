"""Stats and their scale (000 "Reference > Units"; 001 p.10 "Stat"): the ``<level>x<scale>``
notation (``stats``) and real quantities ↔ stats — mass → Body, speed → Speed, IQ → Mind —
with the map scales and Move (000 "Map Scales", ``quantities``)."""
