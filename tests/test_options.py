"""The one ``[rules]`` options module: every key, its default, its check, its docs."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from d2d_cli.errors import SessionError
from d2d_cli.rules.core import options, record

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules.md"


def test_options_and_their_declarations_agree() -> None:
    fields = record.fields(options.Options)
    assert [f.name for f in fields] == [o.key for o in options.OPTIONS]
    for o in options.OPTIONS:
        assert getattr(options.DEFAULTS, o.key) == o.default
        assert o.default is None or o.check(o.default), o.key
        assert o.source, o.key


def test_docs_list_every_key_with_its_default_and_its_line() -> None:
    rows = re.findall(r"^\| `(\w+)` \| (.+?) \|.*\| (.+?) \|$",
                      DOCS.read_text(encoding="utf-8"), re.M)
    documented = {key: default for key, default, _ in rows}
    assert {key: line for key, _, line in rows} == {o.key: o.source for o in options.OPTIONS}
    assert list(documented) == [o.key for o in options.OPTIONS]
    for o in options.OPTIONS:
        if o.default is not None:
            if isinstance(o.default, bool):
                want = "true" if o.default else "false"
            else:
                want = f'"{o.default}"' if isinstance(o.default, str) else str(o.default)
            assert documented[o.key].startswith(f"`{want}`"), (o.key, documented[o.key])


def test_missing_table_is_the_defaults() -> None:
    assert options.parse(None) is options.DEFAULTS
    assert options.parse({}) is options.DEFAULTS


def test_values_are_typed() -> None:
    got = options.parse({"speed_convention": "000", "personal_round_s": 2,
                         "ten_always_hits": True, "new_skill_sp": 0})
    assert (got.speed_convention, got.personal_round_s, got.ten_always_hits,
            got.new_skill_sp) == ("000", 2, True, 0)
    assert got.changed() == {"speed_convention": "000", "personal_round_s": 2,
                             "ten_always_hits": True, "new_skill_sp": 0}


@pytest.mark.parametrize(("table", "message"), [
    ("x", "f.toml: [rules] must be a table, not 'x'"),
    ({"speed_convention": "5"}, "f.toml: [rules] speed_convention: '5': use \"001\" or "
                                "\"000\""),
    ({"ten_always_hits": "yes"}, "f.toml: [rules] ten_always_hits: 'yes': use true or "
                                 "false"),
    ({"personal_round_s": float("nan")}, "f.toml: [rules] personal_round_s: nan: use a "
                                         "number of seconds above 0"),
    ({"new_skill_sp": True}, "f.toml: [rules] new_skill_sp: True: use a whole number "
                             "from 0 to 100"),
    ({"ten_always_hit": True}, "f.toml: [rules] ten_always_hit: no such key (did you mean "
                               "'ten_always_hits'?)"),
])
def test_bad_values_name_file_table_and_key(table: Any, message: str) -> None:
    with pytest.raises(SessionError) as e:
        options.parse(table, "f.toml")
    assert str(e.value).startswith(message)


def test_a_bad_value_refuses_every_command_before_any_change(d2d: Any, tmp_path: Path
                                                             ) -> None:
    path = tmp_path / "t.toml"
    d2d.ok("--session", path, "char", "new", "Rook", "--template", "human-female",
           "--body", "7", "--will", "5", "--archetype", "thief")
    path.write_text(path.read_text().replace("[rules]\n", "[rules]\nspeed_convention = "
                                             "\"5\"\n", 1))
    before = path.read_bytes()
    for argv in (["char", "award", "Rook", "--cp", "1"], ["char", "show", "Rook"],
                 ["weather", "wind"], ["scale", "speed", "4m/s"], ["session", "show"]):
        res = d2d("--session", path, *argv)
        assert res.exit_code == 3, argv
        assert f"{path}: [rules] speed_convention: '5'" in res.stderr
        assert path.read_bytes() == before


def test_each_default_quotes_its_rule_text_at_the_line_given() -> None:
    from tests.helpers import check_quotes

    quoted = "\n".join(o.source for o in options.OPTIONS)
    # Every Option with a line number cites it; the locations charts are pictures.
    assert check_quotes(quoted) == sum(" l." in o.source for o in options.OPTIONS) >= 14
