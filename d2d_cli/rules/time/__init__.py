"""The round and the scene's time (001 p.18 "Scene", p.19 "Round: Start", p.39 "Resolution",
p.40 "Round: End"; 000 "6) Events", "Weather"): task clocks (``tasks``), the scene clock and
its events (``clock``), the round's record (``round_state``), refresh and upkeep
(``rounds``), spending Move and Actions (``turns``), a Power's Action, the Continuous
Powers' Price and Remain Hidden at Round: End (``upkeep``), Groups by Target (``groups``),
the weather (``weather``), what the table says once in a round — situation,
Interrupt, the Target's answer (``exchange``) — and a unit's step off the map's edge
(``leaving``, ``d2d unit leave``)."""
