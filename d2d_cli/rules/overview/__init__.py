"""The table at a glance and the scene as a whole (000 "1. Setup", "2. Prologue"; 001 p.18
"Scene: Events"): scene files (``scene``), the dashboard of ``d2d status`` (``dashboard``),
the play shell's status line (``summary``) and ``d2d ref`` over every table
(``reference``)."""
