"""``d2d roll``: a dice and deck notation, rolled or read as an exact distribution.

The notation (docs/rules.md "Dice notation" has the whole grammar)::

    4d6kh3            keep the 3 highest of 4d6 (kh kl dh dl; the count defaults to 1)
    d20 + 5[str]      arithmetic (+ - * /, / rounds down), grouping ( ), [labels]
    d%  dF  d{1,1,2,3}  d{11..20}   percentile, Fudge, custom faces
    d6!  d6!>=5x3     explode on the highest face (or on >=N, <=N, =N), at most x10 times
    d6r1  d6ro<=2     reroll (until it is not) / reroll once
    6d6>=5            count successes (>= <= =; a bare > or < is refused as ambiguous)
    {d20, d{11..20}}kh1   keep among whole expressions
    3c  3cf  3cp=hearts   cards: the session's Fate deck, a fresh Fate deck, a poker deck
    d20+3 vs 15 per 5 max 5 crit 20 fumble 1   success, degrees, natural crit/fumble
    d20 -> 1: fail, 2-7: worse, 8..13: normal, 14+: better, else: other   bands
    # comment          everything after # is a comment

Everything is bounded before any work (the ``MAX_*`` limits below): the text's length and
nesting, dice counts and faces, explosion caps, the rolls one roll can make, the
size of values, and the work of an exact distribution. Anything beyond is refused
with :class:`BadInput` (exit 2). The parser is a hand-written recursive descent
whose depth is bounded by the nesting limit; sums and products are flat lists, so
no input can exhaust the stack.

Modifiers of a dice term apply in one fixed order whatever order they are written
in: reroll, explode, keep/drop, count.

The stages, one module each: ``limits`` (the bounds), ``syntax`` (tokens and the tree),
``parser`` (text → tree), ``rolling`` (a roll) and ``exact`` (an exact distribution).
This package's names are the public face the command and the systems use.
"""

from __future__ import annotations

from d2d_cli.rules.roll.notation.exact import BandRow as BandRow
from d2d_cli.rules.roll.notation.exact import DegreeRow as DegreeRow
from d2d_cli.rules.roll.notation.exact import FateCounts as FateCounts
from d2d_cli.rules.roll.notation.exact import Outcome as Outcome
from d2d_cli.rules.roll.notation.exact import RollOdds as RollOdds
from d2d_cli.rules.roll.notation.exact import card_pool_dist as card_pool_dist
from d2d_cli.rules.roll.notation.exact import check_odds as check_odds
from d2d_cli.rules.roll.notation.exact import dice_dist as dice_dist
from d2d_cli.rules.roll.notation.exact import estimate as estimate
from d2d_cli.rules.roll.notation.exact import odds as odds
from d2d_cli.rules.roll.notation.limits import CARD_SOURCES as CARD_SOURCES
from d2d_cli.rules.roll.notation.limits import DECK_SIZES as DECK_SIZES
from d2d_cli.rules.roll.notation.limits import DEFAULT_EXPLODE as DEFAULT_EXPLODE
from d2d_cli.rules.roll.notation.limits import MAX_ATOMS as MAX_ATOMS
from d2d_cli.rules.roll.notation.limits import MAX_BANDS as MAX_BANDS
from d2d_cli.rules.roll.notation.limits import MAX_DEPTH as MAX_DEPTH
from d2d_cli.rules.roll.notation.limits import MAX_DICE as MAX_DICE
from d2d_cli.rules.roll.notation.limits import MAX_EXPLODE as MAX_EXPLODE
from d2d_cli.rules.roll.notation.limits import MAX_FACES as MAX_FACES
from d2d_cli.rules.roll.notation.limits import MAX_GROUP as MAX_GROUP
from d2d_cli.rules.roll.notation.limits import MAX_GROUP_OUTCOMES as MAX_GROUP_OUTCOMES
from d2d_cli.rules.roll.notation.limits import MAX_LABEL as MAX_LABEL
from d2d_cli.rules.roll.notation.limits import MAX_MAGNITUDE as MAX_MAGNITUDE
from d2d_cli.rules.roll.notation.limits import MAX_NUMBER as MAX_NUMBER
from d2d_cli.rules.roll.notation.limits import MAX_ODDS_SECONDS as MAX_ODDS_SECONDS
from d2d_cli.rules.roll.notation.limits import MAX_ODDS_SPAN as MAX_ODDS_SPAN
from d2d_cli.rules.roll.notation.limits import MAX_ROLLS as MAX_ROLLS
from d2d_cli.rules.roll.notation.limits import MAX_SIDES as MAX_SIDES
from d2d_cli.rules.roll.notation.limits import MAX_TEXT as MAX_TEXT
from d2d_cli.rules.roll.notation.parser import check_bounds as check_bounds
from d2d_cli.rules.roll.notation.parser import parse as parse
from d2d_cli.rules.roll.notation.rolling import FATE as FATE
from d2d_cli.rules.roll.notation.rolling import POKER as POKER
from d2d_cli.rules.roll.notation.rolling import RollResult as RollResult
from d2d_cli.rules.roll.notation.rolling import TermRoll as TermRoll
from d2d_cli.rules.roll.notation.rolling import band_of as band_of
from d2d_cli.rules.roll.notation.rolling import degrees as degrees
from d2d_cli.rules.roll.notation.rolling import roll as roll
from d2d_cli.rules.roll.notation.rolling import sample_total as sample_total
from d2d_cli.rules.roll.notation.syntax import Band as Band
from d2d_cli.rules.roll.notation.syntax import Cards as Cards
from d2d_cli.rules.roll.notation.syntax import CardTest as CardTest
from d2d_cli.rules.roll.notation.syntax import Cmp as Cmp
from d2d_cli.rules.roll.notation.syntax import Dice as Dice
from d2d_cli.rules.roll.notation.syntax import Expression as Expression
from d2d_cli.rules.roll.notation.syntax import Group as Group
from d2d_cli.rules.roll.notation.syntax import Keep as Keep
from d2d_cli.rules.roll.notation.syntax import Neg as Neg
from d2d_cli.rules.roll.notation.syntax import Node as Node
from d2d_cli.rules.roll.notation.syntax import Num as Num
from d2d_cli.rules.roll.notation.syntax import Prod as Prod
from d2d_cli.rules.roll.notation.syntax import Sum as Sum
from d2d_cli.rules.roll.notation.syntax import Tok as Tok
from d2d_cli.rules.roll.notation.syntax import card_value as card_value
from d2d_cli.rules.roll.notation.syntax import tokenize as tokenize
from d2d_cli.rules.roll.notation.syntax import walk as walk
