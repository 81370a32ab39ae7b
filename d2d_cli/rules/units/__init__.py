"""Units and characters (000 "Reference > Units", "Character Creation", "Skills", "Powers",
"Stealth", the Glossary's Conditions; 001 p.7 "Unit", p.42 "Advancement"): the roster
(``roster``), Conditions (``condition_table``, ``conditions``), skills (``skills``),
22-point creation and advancement (``characters``), characters carried between
sessions (``travel``), what a unit keeps in play
(``unit_state``), what a Special Action leaves on a unit for the Round (``effects``),
Abilities (``abilities``), Powers (``powers``), Stealth (``stealth``), the Status Bar
(``status_bar``), what the round remembers between units (``exchange``) and days of
healing (``downtime``); whose side a unit is on and who plays it (``sides``) and the
Players' Conflict hands (``hands``, 000 l.401); what a unit carries — weapons, armor,
a Shield and Proficiencies (``gear``, 000 l.506, l.379)."""
