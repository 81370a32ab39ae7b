"""Random dice expressions for the cross-checks: each comes with the same expression
built in icepool (a test dependency only), and a hypothesis grammar for the
property tests."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import icepool
from hypothesis import strategies as st

Ice = Any

SIDES = (2, 3, 4, 6, 8, 10, 12, 20)


def _cmp(rng: random.Random, lo: int, hi: int) -> tuple[str, Callable[[int], bool]]:
    op = rng.choice([">=", "<=", "="])
    t = rng.randint(lo, hi)
    test = {">=": lambda v: v >= t, "<=": lambda v: v <= t, "=": lambda v: v == t}[op]
    return f"{op}{t}", test


def _die(rng: random.Random) -> tuple[str, Ice, list[int]]:
    kind = rng.random()
    if kind < 0.6:
        s = rng.choice(SIDES)
        return f"d{s}", icepool.d(s), list(range(1, s + 1))
    if kind < 0.8:
        faces = [rng.randint(-3, 6) for _ in range(rng.randint(2, 5))]
        return "d{" + ",".join(map(str, faces)) + "}", icepool.Die(faces), faces
    return "dF", icepool.Die([-1, 0, 1]), [-1, 0, 1]


def dice_term(rng: random.Random) -> tuple[str, Ice]:
    """NdS with optional reroll, explode, keep and count."""
    n = rng.randint(1, 4)
    text, die, faces = _die(rng)
    if rng.random() < 0.2:
        mod, test = _cmp(rng, min(faces), max(faces))
        if not all(test(f) for f in faces):
            once = rng.random() < 0.5
            text += ("ro" if once else "r") + mod
            die = die.reroll(test, depth=1 if once else "inf")
    if rng.random() < 0.2 and len(set(faces)) > 1:  # (icepool cannot explode every face)
        cap = rng.randint(1, 2)
        mod, test = _cmp(rng, min(faces), max(faces))
        if rng.random() < 0.5:
            text += f"!x{cap}"
            top = max(faces)
            die = die.explode([top], depth=cap)
        elif not all(test(f) for f in faces):
            text += f"!{mod}x{cap}"
            die = die.explode(test, depth=cap)
    text = f"{n}{text}"
    pool = die.pool(n)
    if n > 1 and rng.random() < 0.5:
        mode = rng.choice(["kh", "kl", "dh", "dl"])
        k = rng.randint(1, n - 1)
        text += f"{mode}{k}"
        pool = {"kh": lambda: pool.highest(k), "kl": lambda: pool.lowest(k),
                "dh": lambda: pool.lowest(n - k), "dl": lambda: pool.highest(n - k)}[mode]()
    if rng.random() < 0.25:
        lo, hi = min(faces), max(faces)
        mod, test = _cmp(rng, lo, hi)
        text += mod
        return text, pool.sum(map=lambda o: 1 if test(o) else 0)
    return text, pool.sum()


def expression(rng: random.Random, depth: int = 0) -> tuple[str, Ice]:
    roll = rng.random()
    if depth >= 2 or roll < 0.45:
        if rng.random() < 0.15:
            v = rng.randint(-3, 9)
            return (f"({v})" if v < 0 else str(v)), icepool.Die([v])
        return dice_term(rng)
    if roll < 0.55:
        members = [expression(rng, depth + 1) for _ in range(rng.randint(2, 3))]
        k = rng.randint(1, len(members) - 1)
        high = rng.random() < 0.5
        pool = icepool.Pool([m[1] for m in members])
        text = "{" + ", ".join(m[0] for m in members) + "}" + ("kh" if high else "kl") + str(k)
        return text, (pool.highest(k) if high else pool.lowest(k)).sum()
    a, b = expression(rng, depth + 1), expression(rng, depth + 1)
    op = rng.choice(["+", "-", "+", "-", "*"])
    ice = {"+": a[1] + b[1], "-": a[1] - b[1], "*": a[1] * b[1]}[op]
    return f"({a[0]} {op} {b[0]})", ice


# --------------------------------------------------------------------------- hypothesis

_atoms = st.one_of(
    st.integers(0, 20).map(str),
    st.builds(lambda n, s: f"{n}d{s}", st.integers(1, 6), st.sampled_from(SIDES)),
    st.builds(lambda n, s, m, k: f"{n}d{s}{m}{k}", st.integers(2, 5), st.sampled_from(SIDES),
              st.sampled_from(["kh", "kl", "dh", "dl"]), st.integers(1, 1)),
    st.builds(lambda n, s, o, t: f"{n}d{s}{o}{t}", st.integers(1, 5), st.sampled_from(SIDES),
              st.sampled_from([">=", "<=", "="]), st.integers(1, 8)),
    st.builds(lambda s, c: f"d{s}!x{c}", st.sampled_from((4, 6, 8)), st.integers(1, 3)),
    st.builds(lambda s: f"d{s}r1", st.sampled_from((4, 6, 8))),
    st.builds(lambda s: f"2d{s}ro<=2", st.sampled_from((4, 6))),
    st.just("dF"), st.just("d{1,1,2,3}"), st.just("d%"),
    st.builds(lambda n: f"{n}cp=hearts", st.integers(1, 5)),
    st.builds(lambda n: f"{n}cf", st.integers(1, 3)),
)


def _combine(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.builds(lambda a, op, b: f"{a} {op} {b}", children, st.sampled_from("+-*"),
                  children),
        children.map(lambda a: f"({a})"),
        st.builds(lambda a, b: f"{{{a}, {b}}}kh1", children, children),
        children.map(lambda a: f"-{a}"),
    )


valid_expressions = st.recursive(_atoms, _combine, max_leaves=4)

# Anything the grammar's pieces can make, valid or not: every one must return or be
# refused with BadInput, quickly.
_pieces = st.sampled_from([
    "d", "d6", "4d6", "kh", "kl3", "dh", "dl1", "!", "!x", "!x200", "r", "ro", ">=", "<=",
    "=", ">", "<", "(", ")", "{", "}", ",", "+", "-", "*", "/", "%", "dF", "d{1,2}", "c",
    "3cp", "cf", "=hearts", "vs", "per 5", "max 5", "crit 20", "fumble 1", "-> 1: a",
    ", 2..: b", "#x", "[l]", "1000d6", "100000d6", "1000", "0", "d0", "..", "x", "99",
    "d1000", "999d999kh998", " ",
])
any_text = st.lists(_pieces, max_size=14).map("".join)
