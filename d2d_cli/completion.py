"""Tab completion: of a ``d2d play`` line, and the bash side of ``d2d <TAB>``.

The candidates of both come from one place: Click's completion of the real command tree
(so a new command or option completes with no change here), whose name-taking
parameters complete through ``commands/_complete.py`` (one matching rule for units,
tasks, skills, conditions, kinds…). What this module adds is the part a shell does for
Click: cutting a half-typed line into words and quoting a name with spaces
(``"Goblin Scout"``) as it is inserted into a play line (:func:`candidates`); for bash,
escaping each candidate so bash reads it back as one word (:class:`BashComplete`); for
zsh, a script that completes on the first Tab (:data:`ZSH_SCRIPT`).

The shells' scripts and protocols are Click's documented extension point: a
``ShellComplete`` class per shell, registered with ``add_completion_class``
(:func:`register`), whose ``source()`` is the script ``--show-completion`` prints
(:func:`script`). Typer registers its classes for bash, zsh, fish and powershell;
d2d replaces two of them: bash's (its candidates escaped) and zsh's (its script).
"""

from __future__ import annotations

import functools
from typing import Any

from d2d_cli.compat import (
    CompletionItem,
    ShellComplete,
    add_completion_class,
    completion_init,
    get_completion_class,
    split_arg_string,
)
from d2d_cli.registry import GLOBAL_FLAGS, GLOBAL_WITH_VALUE, GROUPS, hoist_globals
from d2d_cli.rules.core.record import record

# Words the shell itself understands, with their help.
BUILTINS = {
    "help": "Help on the shell, or on a command: help fate draw",
    "undo": "Revert the last change (session undo)",
    "exit": "Leave the shell (or Ctrl-D)",
    "quit": "Leave the shell (or Ctrl-D)",
}
# Commands that make no sense inside d2d play: play itself, and the tour (which runs a
# session of its own); neither completes nor is listed by the shell's help.
NOT_IN_PLAY = ("play", "tour", "serve")  # serve runs until q: its own terminal
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
    offered = {**{name: g.help for name, g in GROUPS.items() if name not in NOT_IN_PLAY},
               **BUILTINS}
    typed = part.incomplete.lower()
    return [Candidate(name, part.start, name, help_) for name, help_ in offered.items()
            if name.startswith(typed)]


def _click_items(words: list[str], incomplete: str, obj: Any) -> list[Any]:
    """Click's completion of ``d2d WORDS INCOMPLETE`` (its documented
    ``ShellComplete.get_completions``): the same resolution of the command, option or
    argument being completed, and the same name completers (commands/_complete.py), as
    the shell's ``d2d <TAB>``."""
    root = obj.root
    args = hoist_globals(list(words))
    items = list(PlayComplete(root, {"obj": obj}, "d2d", COMPLETE_VAR)
                 .get_completions(args, incomplete))
    if incomplete.startswith("-") and words:  # global options work after the command too
        globals_ = [p for p in root.params if getattr(p, "opts", None)
                    and p.opts[0] in (*GLOBAL_WITH_VALUE, *GLOBAL_FLAGS)]
        have = {i.value for i in items}
        items += [CompletionItem(p.opts[0], help=p.help) for p in globals_
                  if p.opts[0].startswith(incomplete) and p.opts[0] not in have]
    return items


# --------------------------------------------------------------------------- bash

COMPLETE_VAR = "_D2D_COMPLETE"  # the variable the shells' scripts set (cli.COMPLETE_VAR)


def escape(value: str) -> str:
    """A value as bash reads it back as one word: ``Goblin Scout`` → ``Goblin\\ Scout``
    (a backslash before every character a shell would treat specially)."""
    return "".join(ch if ch in _SAFE else "\\" + ch for ch in value)


class PlayComplete(ShellComplete):
    """Click's completion for a ``d2d play`` line: only its resolution of what is being
    completed (``get_completions``); the line editor does the rest."""

    name = "d2d-play"
    source_template = ""

    def source_vars(self) -> dict[str, Any]:
        return {}

    def get_completion_args(self) -> tuple[list[str], str]:
        return [], ""

    def format_completion(self, item: Any) -> str:
        return str(item.value)


# The bash script: Typer's protocol (the shell's words in COMP_WORDS, the cursor's word in
# COMP_CWORD, the answer one candidate a line), which :class:`BashComplete` speaks.
BASH_SCRIPT = """
%(complete_func)s() {
    local IFS=$'\n'
    COMPREPLY=( $( env COMP_WORDS="${COMP_WORDS[*]}" \\
                   COMP_CWORD=$COMP_CWORD \\
                   %(autocomplete_var)s=complete_bash $1 ) )
    return 0
}

complete -o default -F %(complete_func)s %(prog_name)s
"""


class BashComplete(ShellComplete):
    """Bash, by Click's documented extension point (a ``ShellComplete`` registered for
    the ``complete_bash`` instruction): Typer's script and protocol, except that each
    candidate comes back as bash must insert it. Bash puts a candidate in the line as it
    is: ``Goblin Scout`` would become two words, so it is escaped (``Goblin\\ Scout``)
    unless the word being completed opened a quote (``"Goblin Sc``), which bash then
    closes itself."""

    name = "bash"
    source_template = BASH_SCRIPT
    quoted = False
    trim = ""

    def source_vars(self) -> dict[str, Any]:
        return {"complete_func": self.func_name, "autocomplete_var": self.complete_var,
                "prog_name": self.prog_name}

    def get_completion_args(self) -> tuple[list[str], str]:
        import os

        raw = os.environ["COMP_WORDS"]  # bash's words, joined, with their quotes as typed
        cwords = split_arg_string(raw)
        cword = int(os.environ["COMP_CWORD"])
        incomplete = cwords[cword] if cword < len(cwords) else ""
        if cword == len(cwords) - 1:
            self.quoted = split_partial(raw).quote is not None
        # Bash cuts words at ':' too (COMP_WORDBREAKS): `Thief:fa` arrives as `Thief`,
        # `:`, `fa`. The word is glued back for Click, and what bash replaces is only
        # the part after the colon, so the candidates lose that prefix (as
        # bash-completion's __ltrim_colon_completions does).
        start = cword
        if incomplete == ":" and cword >= 2:
            start = cword - 1
        elif cword >= 3 and cwords[cword - 1] == ":":
            start = cword - 2
        if start != cword:
            self.trim = cwords[start] + ":"
            incomplete = self.trim + (incomplete if incomplete != ":" else "")
        return cwords[1:start], incomplete

    def get_completions(self, args: list[str], incomplete: str) -> list[Any]:
        """A candidate ending in ``:`` (``Thief:``, a unit side of a conflict waiting for
        its approach) is not a whole word: bash would put a space after it, so bash is
        given its continuations instead (``Thief:fast``…)."""
        items = super().get_completions(args, incomplete)
        out: list[Any] = []
        for item in items:
            value = str(item.value)
            if value.endswith(":") and value != incomplete:
                out += super().get_completions(args, value) or [item]
            else:
                out.append(item)
        return out

    def format_completion(self, item: Any) -> str:
        value = str(item.value)
        if self.trim and value.startswith(self.trim):
            value = value[len(self.trim):]
        return value if self.quoted else escape(value)


# --------------------------------------------------------------------------- zsh

# Typer 0.28's zsh script ends with `compdef`: installed as ~/.zfunc/_d2d, the first Tab
# of a new zsh only autoloads it (it defines the function and registers it, completing
# nothing: the bell); only the second Tab completes. Click's own zsh script calls the
# function when it is autoloaded, and registers it when sourced; the same here.
ZSH_SCRIPT = """
#compdef %(prog_name)s

%(complete_func)s() {
  eval $(env _TYPER_COMPLETE_ARGS="${words[1,$CURRENT]}" %(autocomplete_var)s=complete_zsh \
%(prog_name)s)
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
  %(complete_func)s "$@"
else
  compdef %(complete_func)s %(prog_name)s
fi
"""


@functools.cache
def _zsh_complete() -> type[ShellComplete]:
    """Typer's zsh class (its protocol: the words in ``_TYPER_COMPLETE_ARGS``, the answer
    as ``_arguments``) with :data:`ZSH_SCRIPT` as its script. Typer's class is reached
    as Click hands it out (``get_completion_class``), not by its module's name."""
    typers = get_completion_class("zsh")
    assert typers is not None, "Typer's completion classes are registered first"
    return type("ZshComplete", (typers,), {"source_template": ZSH_SCRIPT,
                                           "__doc__": _zsh_complete.__doc__})


# --------------------------------------------------------------------------- shells

# The shells whose class is d2d's: their installed file is the script alone, so the
# installer's file is rewritten with it (cli's --install-completion).
OWN_SHELLS = ("bash", "zsh")


def register() -> None:
    """Register the completion classes with Click: Typer's (bash, zsh, fish, powershell),
    then d2d's for bash and zsh in their place."""
    completion_init()
    add_completion_class(BashComplete, "bash")
    add_completion_class(_zsh_complete(), "zsh")


def script(cli: Any, prog_name: str, complete_var: str, shell: str) -> str:
    """The completion script for ``shell``: its registered class's ``source()``."""
    from d2d_cli.errors import BadInput

    register()
    cls = get_completion_class(shell)
    if cls is None:
        raise BadInput(f"no tab completion for the shell {shell!r}: "
                       "bash, zsh, fish or powershell")
    return cls(cli, {}, prog_name, complete_var).source().strip("\n")


def detect_shell() -> str | None:
    """The shell d2d runs under (bash, zsh, fish…) as shellingham detects it (the way
    Typer does), None when it cannot tell."""
    import shellingham

    try:
        name, _path = shellingham.detect_shell()
    except shellingham.ShellDetectionFailure:
        return None
    return str(name)
