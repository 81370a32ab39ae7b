"""The ``--card`` option: cards drawn at the table, for every card-revealing command
(the operation reveals them: ``operations.reveals``)."""

from typing import Annotated

import typer

from d2d_cli.commands._complete import CARD

CardOpt = Annotated[
    list[str] | None,
    typer.Option("--card", "-c", metavar="CARD", click_type=CARD,
                 help="Table mode: a card drawn at the table (e.g. QH^, 10sv, RW); repeat "
                      "for more. The virtual deck is not touched."),
]
