"""The printable character sheet (d2d_cli/sheet.py, ``d2d char export``): parsed back, it
holds the whole character and nothing that reaches the network."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from d2d_cli import sheet

SVG_NS = 'xmlns="http://www.w3.org/2000/svg"'


@pytest.fixture
def rook(d2d) -> None:
    d2d.ok("char", "new", "Rook", "--template", "human-female", "--body", "7", "--will", "5",
           "--archetype", "thief", "--fear", "Drowning", "--motivation", "Pay the debt <now>")
    d2d.ok("char", "award", "Rook", "--cp", "2", "--sp", "3", "--ap", "1")
    d2d.ok("char", "learn", "Rook", "Pick Lock")
    d2d.ok("unit", "condition", "Rook", "add", "fatigue", "--count", "2")
    # 6x-1 adds no Hits unarmoured (001 l.934), so the Crit adds no light damage.
    d2d.ok("crit", "--power", "6x-1", "--hits", "3", "--types", "pierce", "--target", "Rook",
           "--card", "pierce@torso")


# What the sheet must say, each as the reader sees it: each stat before conditions, the
# conditions apart (issue 28: a printout does not go stale when Fatigue clears).
EXPECTED = ["Rook", "Thief · template human-female · 22 stat points", "Body", "7x1",
            "5x1 with conditions", "Mind", "6x1", "IQ 110", "Will", "5x1", "Speed", "4x0",
            "70 kg / 154.3 lb; Deadlift 105 kg, Carry 70 kg, Load 35 kg",
            "4 km/h / 2.485 mph", "2", "3", "0", "Athletics 1", "Stealth 1", "Pick Lock",
            "Fatigue ×2", "Torso — Critical", "Pay the debt <now>", "Drowning", "Motivation",
            "Trigger", "Notes"]


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.texts.append(data.strip())


def _no_network(text: str) -> None:
    assert not re.search(r"https?://", text.replace(SVG_NS, ""))
    for needle in ("url(", "@import", "<link", "<script", "<img", "src=", "@font-face"):
        assert needle not in text


def test_html_sheet(d2d, rook, tmp_path: Path) -> None:
    out = tmp_path / "rook.html"
    d2d.ok("char", "export", "Rook", "--format", "html", "-o", out)
    text = out.read_text(encoding="utf-8")
    parser = _Text()
    parser.feed(text)
    texts = [t for t in parser.texts if not t.startswith(("@page", "*"))]  # not the CSS
    for want in EXPECTED:
        assert want in texts, want
    assert "CHARACTER POINTS" not in texts and "Character Points" in texts
    assert "style" in parser.tags and "script" not in parser.tags
    _no_network(text)
    assert "@page { margin: 12mm; }" in text  # the paper size is the print dialog's
    assert "html { background: #fff; color: #111; }" in text  # light, for paper


def test_svg_sheet(d2d, rook, tmp_path: Path) -> None:
    out = tmp_path / "rook.svg"
    d2d.ok("char", "export", "Rook", "--format", "svg", "-o", out)
    text = out.read_text(encoding="utf-8")
    root = ET.fromstring(text)
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == (
        "210.0mm", "297.0mm", "0 0 210.0 297.0")  # A4
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text") if t.text]
    for want in EXPECTED:
        assert want in texts or want.upper() in texts, want
    _no_network(text)


def test_letter_paper() -> None:
    data = {"name": "Pip", "stats": {"body": "2x1"}}
    root = ET.fromstring(sheet.svg(data, paper="letter"))
    assert (root.get("width"), root.get("height")) == ("215.9mm", "279.4mm")
    assert "@page { size: 215.9mm 279.4mm; margin: 12mm; }" in sheet.html(data, paper="letter")


def test_a_sparse_character_still_makes_a_whole_sheet() -> None:
    """Only a name: every section is there, with room to write."""
    parser = _Text()
    parser.feed(sheet.html({"name": "Nobody"}))
    for want in ("Nobody", "no archetype", "Stats", "Skills", "Abilities", "Conditions",
                 "Crits", "Character conception", "Notes", "Humiliation"):
        assert want in parser.texts, want
    ET.fromstring(sheet.svg({"name": "Nobody"}))  # well-formed


def test_names_are_escaped() -> None:
    data = {"name": "<b>&", "skills": {"Lore & <Myth>": 2}}
    parser = _Text()
    parser.feed(sheet.html(data))
    assert "<b>&" in parser.texts and "Lore & <Myth> 2" in parser.texts
    root = ET.fromstring(sheet.svg(data))
    assert "<b>&" in [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
