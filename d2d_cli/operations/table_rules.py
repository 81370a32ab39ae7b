"""``d2d rules``: the table's à la carte rules (``[rules]``), shown and set from the
command line against the one table of keys (``rules.core.options``) — a typo is refused
with the nearest key or word, a change is journalled and undone like any other."""

from __future__ import annotations

from typing import Any

from d2d_cli.operations import Target
from d2d_cli.rules.core import options as rules


def show(t: Target) -> rules.RulesView:
    """``d2d rules``: every rule with the session's value, its default and its meaning."""
    data = t.read()
    t.options(data)  # a bad hand edit: exit 3, the key named
    return rules.view(data.get("rules"))


def set_(t: Target, key: str, value: str) -> rules.RuleChange:
    """``d2d rules set KEY VALUE``: one rule changed (``d2d rules set hands d2d``).
    Turning ``hands`` to ``"d2d"`` deals every Player a hand, as ``hand deal`` does."""
    opt = rules.option(key)
    return _change(t, opt.key, rules.value_of(opt, value))


def unset(t: Target, key: str) -> rules.RuleChange:
    """``d2d rules unset KEY``: the rule back to its default (the key leaves the file)."""
    return _change(t, rules.option(key).key, None)


def assignments(pairs: list[str]) -> dict[str, Any]:
    """``--rule KEY=VALUE`` options as a ``[rules]`` table, each checked (exit 2)."""
    return dict(rules.assignment(p) for p in pairs)


def initial(t: Target, table: dict[str, Any]) -> None:
    """A new session's rules (``session new --rule``), written in the same change."""
    with t.edit() as tx:
        new = {**_table(tx.data), **table}
        rules.parse(new, str(t.path()))
        tx.put("rules", new)
        _deal(tx, None, rules.parse(new))
        tx.summary = "rules " + ", ".join(f"{k} = {rules.shown(v)}" for k, v in table.items())


def _change(t: Target, key: str, value: Any) -> rules.RuleChange:
    with t.edit() as tx:
        old = _table(tx.data)
        before = None if any(rules.problems(old)) else rules.parse(old)
        table = rules.changed_table(old, key, value)
        tx.put("rules", table)
        dealt = _deal(tx, before, rules.parse(table, str(t.path())))
        result = rules.change_of(old, table, key, dealt)
        tx.summary = result.summary
    return result


def _table(data: dict[str, Any]) -> dict[str, Any]:
    table = data.get("rules")
    return dict(table) if isinstance(table, dict) else {}


def _deal(tx: Any, before: rules.Options | None, after: rules.Options) -> tuple[Any, ...]:
    """Hands turned to d2d mid-session: every Player gets a fresh Conflict Deck and 5
    cards, as ``hand deal`` does (000 l.401); the Narrator too when ``narrator_hand`` is
    turned on under d2d's hands and holds none yet."""
    from d2d_cli.rules.units import hands

    if after.hands != "d2d":
        return ()
    held = hands.hands_of(tx.data)
    every = hands.holders(tx.data, after.narrator_hand)
    fresh = before is None or before.hands != "d2d"
    who = every if fresh else [p for p in every if p not in held]
    if not who:
        return ()
    result = hands.deal(held, who, tx.rng())
    tx.put("players", hands.state_of(held))
    return result.hands


__all__ = ["assignments", "initial", "set_", "show", "unset"]
