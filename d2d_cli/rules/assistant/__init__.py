"""The Narrator's assistant (issue 22): the Fate oracle for GM-less play (``oracle``),
faction goals a program can check (``goals``), the NPC policy (``policy``), and the
simulator that plays a scene by the same rules functions as the commands (``engine``,
``sim``). The top chapter: it reads every chapter below it."""
