"""The Narrator's assistant (issue 22; 000 l.15 "Game Master or AI", 001 l.63–65 "Game
Master, Cooperative, or Solo": "Reduce GM workload or play GM-less"; 000 "1. Setup"
l.184–186 "Non-Players" and "Goals"; 000 "4. Turns > 2) Groups" l.243 "NPCs"): the Fate
oracle for GM-less play (``oracle``), faction goals a program can check (``goals``), the
NPC policy (``policy``), the Wild Luck and Luck a Player's unit plays on a Crit
(``damage_play``) and its movement on the map (``movement``), and the simulator
that plays a scene by the same rules functions as the commands (``engine``, ``sim``),
the Player's card an NPC's attack asks for (``asking``), and ``npc turn --all`` walking
the Countdown one Count at a time (``countdown``).
The top chapter: it reads every chapter below it; docs/solo.md gives each choice."""
