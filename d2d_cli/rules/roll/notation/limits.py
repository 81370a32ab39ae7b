"""The bounds every expression is checked against before any work, and the error
that names where an expression breaks one."""


from __future__ import annotations

from d2d_cli.errors import BadInput
from d2d_cli.rules.deck.cards import SUIT_LETTER, SUIT_PLAYING, SUIT_SYMBOL, SUITS

# --------------------------------------------------------------------------- limits

MAX_TEXT = 1000  # characters of one expression
MAX_DEPTH = 16  # nested ( ) and { }
MAX_ATOMS = 100  # numbers, dice, cards and groups in one expression
MAX_DICE = 1000  # dice in one term
MAX_SIDES = 10_000  # faces of dN
MAX_FACES = 100  # faces of d{…}
MAX_NUMBER = 1_000_000  # any number written
MAX_EXPLODE = 100  # the largest explosion cap
DEFAULT_EXPLODE = 10  # explosions per die when no xN is given
MAX_ROLLS = 100_000  # dice one roll may roll in the worst case (explosions, rerolls)
MAX_GROUP = 20  # members of { … }
MAX_MAGNITUDE = 10**12  # the largest value any part of an expression may reach
MAX_LABEL = 40
MAX_BANDS = 50
MAX_ODDS_SECONDS = 0.5  # the estimated work of an exact distribution (estimate())
MAX_ODDS_SPAN = 200_000  # distinct totals of an exact distribution
MAX_GROUP_OUTCOMES = 200_000  # joint outcomes enumerated by a kept group


CARD_SOURCES = {"c": "fate", "cf": "fresh", "cp": "poker"}
DECK_SIZES = {"fate": 54, "fresh": 54, "poker": 52}
_SUITS: dict[str, str] = {}
for _s in SUITS:
    for _w in (_s, _s[:-1], SUIT_PLAYING[_s], SUIT_PLAYING[_s][:-1], SUIT_LETTER[_s],
               SUIT_SYMBOL[_s]):
        _SUITS[_w.lower()] = _s


def _bad(msg: str, pos: int | None = None, text: str = "") -> BadInput:
    where = f" at column {pos + 1}" if pos is not None else ""
    near = f" (near {text[pos:pos + 12]!r})" if pos is not None and text else ""
    return BadInput(f"roll: {msg}{where}{near}")


