"""``d2d ref`` lookups and ``d2d char export`` (SVG, HTML, TOML)."""

from __future__ import annotations

import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

from d2d_cli.rules.overview import reference


def test_ref_finds_each_kind(d2d) -> None:
    [cond, gloss] = d2d.json("ref", "blood", "loss")["matches"]
    assert (cond["kind"], cond["penalty"], cond["severity"]) == ("condition", {"body": -1},
                                                                 "major")
    assert gloss == {"kind": "glossary", "name": "Blood Loss",
                     "text": "Body:-1. Day: Blood Loss:-1."}
    [thief] = d2d.json("ref", "THIEF")["matches"]
    assert thief["skills"] == ["Athletics", "Climbing", "Crime", "Evasion", "Mechanics",
                               "Stealth"]
    [stealth] = d2d.json("ref", "stealth")["matches"]
    assert stealth["kind"] == "skill" and stealth["common"] is False
    assert stealth["specialties"] == ["Sneak", "Hide", "Prowl"]
    [melee] = d2d.json("ref", "Melee")["matches"]
    assert melee["common"] is True and melee["aliases"] == ["Melee Combat"]
    [pick] = d2d.json("ref", "pick-lock")["matches"]
    assert pick == {"kind": "specialty", "name": "Pick Lock", "skill": "Mechanics"}
    assert d2d.json("ref", "Fate")["matches"][0]["text"] == "A Conflict Deck that anyone may use"
    assert "Common Skill" in d2d.ok("ref", "Perception")


def test_ref_lists() -> None:
    assert len(reference.lookup("archetypes").matches) == 82
    # 000 l.746–747 list 18 Conditions plus Radiated (Glossary l.1237); Dying and Dead
    # (Glossary Statuses, l.1183, l.1172) are tracked too since issue 11 item 6, and
    # Blessed (l.1145, the Advantage of issue 12 item 3).
    assert len(reference.lookup("conditions").matches) == 22
    names = [e.name for e in reference.lookup("skills").matches]
    assert "Close Combat" in names and "Pyro" in names and "Telepathy" in names
    assert reference.lookup("glossary").matches[0].name == "Ability"


def test_ref_finds_what_every_name_keyed_finds(monkeypatch) -> None:
    """A lookup finds the entries whose name or alias has the term's key, in the order
    of the entries — from an index built once, not by keying all ~600 names at every
    call (``d2d ref thief`` inside d2d play: 2.4 ms, ~1.7 of them keying names)."""
    from d2d_cli.rules.units import characters

    names = sorted({n for e in reference.entries() for n in reference._names(e)})
    for term in [*names, *(n.upper().replace(" ", "-") for n in names)]:
        k = characters.key(term)
        if k in reference.LISTS:
            continue
        want = tuple(e for e in reference.entries()
                     if any(characters.key(n) == k for n in reference._names(e)))
        assert reference.lookup(term).matches == want, term
    keyed: list[str] = []
    real = characters.key
    monkeypatch.setattr(characters, "key", lambda n: keyed.append(n) or real(n))
    assert [e.name for e in reference.lookup("Thief").matches]
    assert len(keyed) == 1  # the term's, not every name's


def test_ref_did_you_mean(d2d) -> None:
    res = d2d("ref", "bleding")
    assert res.exit_code == 2
    assert "did you mean Bleeding" in res.stderr
    res = d2d("ref", "xyzzy")
    assert res.exit_code == 2 and "did you mean" not in res.stderr


def _make_rook(d2d) -> None:
    d2d.ok("char", "new", "Rook", "--archetype", "thief", "--motivation", "Revenge & <glory>")
    d2d.ok("unit", "condition", "Rook", "add", "Stun")


def test_export_svg_is_xml_with_the_sheet(d2d, tmp_path: Path) -> None:
    _make_rook(d2d)
    out = tmp_path / "rook.svg"
    r = d2d.json("char", "export", "Rook", "--format", "svg", "-o", out)
    # "bytes" is the file's size as written (UTF-8: the sheet's "·" and "—" take more
    # than one byte each, so a count of characters would fall short).
    assert r == {"name": "Rook", "format": "svg", "path": str(out),
                 "bytes": out.stat().st_size}
    root = ET.fromstring(out.read_text("utf-8"))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    # Rich writes each text run in a <text> element, spaces as &#160;.
    text = " ".join("".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text"))
    text = text.replace("\xa0", " ")
    for needle in ("Rook", "8x1", "5x1", "4x0", "4x1", "IQ 100", "Thief", "Stealth 1",
                   "Revenge & <glory>"):
        assert needle in text, needle
    res = d2d("char", "export", "Rook", "--format", "svg", "-o", out)
    assert res.exit_code == 2 and "--force" in res.stderr
    d2d.ok("char", "export", "Rook", "--format", "svg", "-o", out, "--force")


def test_export_html_and_toml(d2d, tmp_path: Path) -> None:
    _make_rook(d2d)
    html = tmp_path / "rook.html"
    d2d.ok("char", "export", "Rook", "--format", "html", "-o", html)
    assert "<html" in html.read_text("utf-8") and "IQ 100" in html.read_text("utf-8")
    res = d2d("char", "export", "Rook", "--format", "toml", "-o", "-")
    data = tomllib.loads(res.stdout)["units"]["Rook"]
    assert data["body"] == "8x1" and data["archetype"] == "Thief"
    assert data["conception"] == {"motivation": "Revenge & <glory>"}
    assert data["conditions"] == {"stun": 1} and data["skills"]["Stealth"] == 1
    res = d2d("char", "export", "Rook", "--format", "pdf")
    assert res.exit_code == 2 and "use svg, html, toml, json" in res.stderr
