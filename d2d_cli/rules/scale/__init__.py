"""Stats and their scale (000 "Reference > Units"; 001 p.10 "Stat"): the ``<level>x<scale>``
notation (``stats``) and real quantities ↔ stats — mass → Body, speed → Speed, IQ → Mind —
with the map scales (000 "Map Scales", ``quantities``); the map types and what one Move
counts on each, the one rule for Move and Action Cost (001 l.459–463, ``maps``)."""
