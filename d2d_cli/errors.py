"""The one error type d2d raises on purpose, and its kinds.

Each kind maps to an exit code (DESIGN.md "Exit codes"): 2 bad input, 3 the session
file cannot be used, 1 an unexpected internal error. The CLI's error boundary
(cli.py) is the only place that turns these into messages.
"""

from __future__ import annotations


class D2DError(Exception):
    """A failure the user can act on: one line, a kind, an exit code."""

    kind = "bad_input"
    exit_code = 2

    def __init__(self, message: str, *, kind: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if kind is not None:
            self.kind = kind


class BadInput(D2DError):
    """The user typed something d2d cannot use (exit 2)."""


class NotFound(D2DError):
    """A named thing (unit, task, session…) does not exist (exit 2)."""

    kind = "not_found"


class RuleViolation(D2DError):
    """The input is well-formed but the rules forbid it (exit 2)."""

    kind = "rule"


class SessionError(D2DError):
    """The session file cannot be used: corrupt, newer schema, locked too long (exit 3)."""

    kind = "session"
    exit_code = 3


def fault(step: str) -> None:
    """A step of the write path (``read``, ``temp``, ``renamed``…): the fault-injection
    hook of the running command's environment (d2d_cli/env.py; tests only) may raise
    here."""
    from d2d_cli.env import current

    current().fault(step)
