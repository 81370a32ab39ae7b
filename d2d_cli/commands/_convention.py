"""The argument convention of docs/conventions.md, for the commands that follow it: the
number a command is about is given after its subject, positionally (``fate die d10 3``,
``task new Knot 4``) or by its option's name (``--count 3``, ``--difficulty 4``)."""

from typing import TypeVar

from d2d_cli.errors import BadInput

T = TypeVar("T")


def positional_or_option(positional: T | None, option: T | None, name: str,
                         default: T | None = None, what: str | None = None) -> T:
    """The value given either way; both only if they agree. ``default`` None: needed
    (refused, naming ``what`` it is, when missing)."""
    if positional is not None and option is not None and positional != option:
        raise BadInput(f"{name} given twice ({positional} and --{name} {option}): give it "
                       "once")
    value = positional if positional is not None else option
    if value is None:
        if default is None:
            raise BadInput(f"missing {what or 'the ' + name}: give it as {name.upper()} "
                           f"or --{name}")
        return default
    return value
