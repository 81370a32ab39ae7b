"""The ``d2d`` console script and ``python -m d2d_cli``: one command line in a fresh
process (docs/architecture.md "Speed of a one-shot command").

:func:`run` raises the cyclic collector's first threshold before anything else is
imported. Start-up allocates ~30,000 objects (Typer's and d2d's modules, classes,
functions), none of them garbage, and at CPython's default of 700 the collector walked
them some 40 times for a conflict of two cards (~7% of the instructions of a Typer
hello-world, ~0.1 of a lookup's own share). A lookup now makes no collection at all;
a longer run (``d2d play``, ``sim``, a 1,000-unit session) still collects, every
:data:`FIRST_THRESHOLD` allocations instead of every 700, so cyclic garbage stays
bounded. Reference counting, which frees almost everything, is not touched; the
process leaves by ``os._exit`` (:func:`d2d_cli.cli.run`).
"""

from __future__ import annotations

import gc

FIRST_THRESHOLD = 100_000


def run() -> None:
    """Run ``sys.argv`` as a d2d command line and leave with its exit code."""
    _, second, third = gc.get_threshold()
    gc.set_threshold(FIRST_THRESHOLD, second, third)
    from d2d_cli.cli import run as run_line

    run_line()


if __name__ == "__main__":
    run()
