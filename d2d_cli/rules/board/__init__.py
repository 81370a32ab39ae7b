"""The board (000 "Map and Scale" l.1043 "Spaces", "4) Move" l.262–277, the Fight
modifiers l.314–333, Confined l.454, Double-sized Units l.749; 001 p.19–20 "Move",
"Movement", p.24–26 "Arc", "Range", "Line of Sight"): units placed on a map of Spaces,
and the geometry a Conflict otherwise has the Narrator type.

Modules, bottom up:

- ``grid``: Spaces and their names (``G5``: column letter from the west, row number from
  the north), compass headings (``COMPASS``, ``VECTORS``, ``heading``, ``ahead``), the
  map (``Board``, ``parse_board``) and its legend (``Terrain``, ``DEFAULT_LEGEND``).
- ``placement``: where a unit stands (``Placement``, ``placed``, ``placements``,
  ``occupancy``) and ``place`` (``d2d unit place``); Double-sized units take two Spaces.
- ``moves``: Forward, Drift, Slide, Backward and Drift Back on the map (``direction``,
  ``walk`` → ``Walk`` with its Move and the terrain's extra Move; ``turned``;
  ``reachable`` → the cheapest ``Route`` to every Space a Move budget reaches).
- ``sight``: ``distance`` (Range), ``arc``, ``crossed`` (the Spaces a straight edge
  passes through), ``sight_blocker`` (Line of Sight), ``surrounding`` and ``cover``.
- ``derive``: ``field(data)`` → ``Field`` (the map and every placed unit), and
  ``Field.derive(actor, rival, attack, typed)`` → ``Geometry``: Range, Arcs and
  Flanking, Line of Sight, Cover with its reveal's obstacles, High Ground, Confined and
  Outnumbered, each with its source; the 001 l.633 Verify refusals
  (``Field.refusal`` gives the reason without raising).
- ``edge``: leaving the map at its edge (``exits``: the steps off it from a unit's front
  Space, cheapest first; the rules are silent, docs/rules.md "Leaving the map").
- ``seen``: who sees whom, for Stealth — a unit's Arc:Front in Line of Sight
  (``watches``, ``rivals_seeing``); Hide out of sight of Rivals, Detect in Arc:Front
  (``check_hide``, ``check_detect``; 001 l.561–563, l.591).
- ``view``: ``view(board, units)`` → ``BoardView``, what ``d2d board`` draws and prints;
  ``with_fog`` (the Narrator's map, fog marked) and ``players_view`` (fog drawn as fog).
- ``fog``: Fog of War, Places and the Events on the map (001 l.441–447): ``cover`` and
  ``reveal`` an area, ``entered`` (what a Player's unit reveals by entering and seeing),
  ``searched`` (a Search reveals the Location Events under its Place), ``add_event``.

Everything is pure: a ``Board`` and ``Placement``s in, records out; no session, no I/O.
A planner (an NPC's turn, a simulated fight) calls the same functions as the commands:
``walk`` for where a movement ends and what it costs, ``distance``/``arc``/
``sight_blocker``/``cover`` to judge a Space, ``Field.derive`` for a whole Conflict.
docs/board.md shows the map format and the API with examples.
"""
