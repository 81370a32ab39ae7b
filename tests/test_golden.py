"""Every command's JSON on the Combat #1 transcript is exactly as recorded (issue 9:
a redesign changes no behaviour it does not name). See tests/golden/script.py."""

from __future__ import annotations

from pathlib import Path

from tests.golden.script import LINES, transcript

GOLDEN = Path(__file__).parent / "golden" / "combat1.jsonl"


def test_transcript_matches_the_recorded_json() -> None:
    expected = GOLDEN.read_text(encoding="utf-8").splitlines()
    got = transcript()
    assert len(got) == len(LINES.strip().splitlines()) == len(expected)
    for want, have in zip(expected, got, strict=True):
        assert have == want
    # A regenerated transcript must never have recorded a crash as the expected answer.
    assert not [line for line in expected if line.split("\t")[1] not in ("0", "2")]
