"""Tab completion of a ``d2d play`` line: commands, options and their values.

The candidates come from the same place as the shell's ``d2d <TAB>``: Click's completion
of the real command tree (so a new command or option completes with no change here),
and the completer functions of ``commands/_complete.py`` for names read from the session
(units, tasks…) and the rules' tables (skills, conditions, cards…). What this module
adds is the part a shell does for Click: cutting a half-typed line into words, and
quoting a name with spaces (``"Goblin Scout"``) as it is inserted.
"""

from __future__ import annotations

from typing import Any

from d2d_cli.registry import GLOBAL_FLAGS, GLOBAL_WITH_VALUE, GROUPS, hoist_globals
from d2d_cli.rules.core.record import record

# Words the shell itself understands, with their help.
BUILTINS = {
    "help": "Help on the shell, or on a command: help fate draw",
    "undo": "Revert the last change (session undo)",
    "exit": "Leave the shell (or Ctrl-D)",
    "quit": "Leave the shell (or Ctrl-D)",
}
_SAFE = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
            "@%+=:,./-_^♣♦♥♠×")


@record
class Partial:
    """A line cut at the cursor: the finished words, the word being typed (unquoted),
    where it starts in the line, and the quote it was opened with (if any)."""

    words: list[str]
    incomplete: str
    start: int
    quote: str | None


@record
class Candidate:
    text: str  # what replaces the line from ``start`` on (quoted as needed)
    start: int
    display: str  # what the menu shows (the bare name)
    meta: str = ""  # its help, shown beside it


def split_partial(line: str) -> Partial:
    """Words as the shell will read them (``shlex`` rules: quotes, backslashes), with the
    last one possibly unfinished: ``unit show "Goblin Sc`` → words ``[unit, show]``,
    incomplete ``Goblin Sc`` opened with ``"`` at 10."""
    words: list[str] = []
    word: list[str] | None = None
    start = len(line)
    quote: str | None = None
    opened: str | None = None
    i = 0
    while i < len(line):
        ch = line[i]
        if quote is not None:
            if ch == quote:
                quote = None
            elif ch == "\\" and quote == '"' and i + 1 < len(line) and line[i + 1] in '"\\':
                i += 1
                word.append(line[i])  # type: ignore[union-attr]
            else:
                word.append(ch)  # type: ignore[union-attr]
        elif ch.isspace():
            if word is not None:
                words.append("".join(word))
                word, opened = None, None
        else:
            if word is None:
                word, start, opened = [], i, None
            if ch in "'\"":
                quote = ch
                opened = opened or (ch if not word else None)
            elif ch == "\\" and i + 1 < len(line):
                i += 1
                word.append(line[i])
            else:
                word.append(ch)
        i += 1
    if word is None:
        return Partial(words, "", len(line), None)
    return Partial(words, "".join(word), start, quote or opened)


def quote(value: str, quote_char: str | None = None) -> str:
    """``Goblin Scout`` → ``"Goblin Scout"``; a plain word stays as it is unless the user
    opened a quote."""
    if quote_char is None and value and all(ch in _SAFE for ch in value):
        return value
    if quote_char == "'" and "'" not in value:
        return f"'{value}'"
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def candidates(line: str, obj: Any) -> list[Candidate]:
    """Completions for ``line`` (the text left of the cursor) of a ``d2d play`` line;
    ``obj`` is the shell's ``registry.Settings``: which session names come from, and
    (``root``) the root Click group whose commands are completed."""
    part = split_partial(line)
    words = part.words[1:] if part.words[:1] == ["d2d"] else part.words
    if words[:1] in (["help"], ["undo"]):
        words = words[1:] if words[0] == "help" else ["session", "undo"]
    if not words and not part.incomplete.startswith("-"):
        return _first_word(part)
    try:
        items = _click_items(words, part.incomplete, obj)
    except Exception:  # noqa: BLE001 - completion must never break the line editor
        return []
    out: list[Candidate] = []
    for item in items:
        value = str(item.value)
        if part.incomplete.startswith("-") and not value.startswith("-"):
            continue
        out.append(Candidate(quote(value, part.quote), part.start, value, item.help or ""))
    return out


def _first_word(part: Partial) -> list[Candidate]:
    offered = {**{name: g.help for name, g in GROUPS.items() if name != "play"}, **BUILTINS}
    typed = part.incomplete.lower()
    return [Candidate(name, part.start, name, help_) for name, help_ in offered.items()
            if name.startswith(typed)]


def _click_items(words: list[str], incomplete: str, obj: Any) -> list[Any]:
    """Click's completion of ``d2d WORDS INCOMPLETE``: the same resolution of the command,
    option or argument being completed as the shell's ``d2d <TAB>``."""
    from typer._click import shell_completion as sc

    root = obj.root
    args = hoist_globals(list(words))
    ctx = sc._resolve_context(root, {"obj": obj}, "d2d", args)
    target, typed = sc._resolve_incomplete(ctx, args, incomplete)
    names = _names_of(target)
    if names is not None:  # our completer, unfiltered: it matches any case, later words
        items = [sc.CompletionItem(v[0], help=v[1]) if isinstance(v, tuple)
                 else sc.CompletionItem(v) for v in names(ctx, [], typed)]
    else:
        items = target.shell_complete(ctx, typed)
    if incomplete.startswith("-") and words:  # global options work after the command too
        globals_ = [p for p in root.params if getattr(p, "opts", None)
                    and p.opts[0] in (*GLOBAL_WITH_VALUE, *GLOBAL_FLAGS)]
        have = {i.value for i in items}
        items += [sc.CompletionItem(p.opts[0], help=p.help) for p in globals_
                  if p.opts[0].startswith(incomplete) and p.opts[0] not in have]
    return list(items)


def _names_of(target: Any) -> Any:
    """The completer given to a Typer parameter (``autocompletion=``), called as
    ``(ctx, args, incomplete)``. Typer wraps it in a filter that keeps only names
    starting with the typed text, case-sensitively; the shell wants ``gob`` to find
    ``Goblin Scout``, so it calls the completer itself. None when there is none."""
    wrapped = getattr(target, "_custom_shell_complete", None)
    if wrapped is None or not wrapped.__closure__:
        return None
    cells = dict(zip(wrapped.__code__.co_freevars, wrapped.__closure__, strict=True))
    cell = cells.get("autocompletion")
    return cell.cell_contents if cell is not None else None
