"""``d2d serve``: the table on the players' screens (DESIGN.md "The table: sides, hands,
and the players' page"; docs/serve.md). Imported only by that command: no other command
pays for an HTTP server."""
