"""A page refused or dropped comes back by itself (issue 39 item 2), in Debian's Chromium
driven by Playwright (``/usr/bin/chromium``, as tests/test_serve_browser.py; never a
download): every one of the 64 stream slots held by other clients, the table's page is
refused (503, which makes EventSource give up for good) and shows "reconnecting…"; once
they let go, the page's own retry makes it live again within 5 s, without a reload."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from d2d_cli.serve import limits
from tests import serve_helpers as h

pytestmark = pytest.mark.skipif(**h.NEEDS_CHROMIUM)


@pytest.fixture
def browser() -> Iterator[Any]:
    yield from h.launch_browser()


def _hold_every_slot(served: h.Served) -> list[h.Stream]:
    """64 streams from other loopback addresses, within each address's and link's share:
    48 on the table's link, 8 on each Player's."""
    held: list[h.Stream] = []
    per = limits.STREAMS_PER_ADDRESS
    for n in range(limits.STREAMS_PUBLIC // per):
        held += [h.Stream(served, source=f"127.0.0.{2 + n}") for _ in range(per)]
    for n, player in enumerate(("Player1", "Player2")):
        held += [h.Stream(served, player, source=f"127.0.0.{10 + n}")
                 for _ in range(limits.STREAMS_PER_PLAYER)]
    for s in held:
        assert s.next()["v"] == 1
    assert len(held) == limits.MAX_STREAMS
    return held


@pytest.mark.slow  # run by .ci/run, not by the README's quick command
def test_a_refused_page_is_live_again_within_5_s_of_the_slots_freeing(
        browser: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    gen = h.serve(h.table(tmp_path))
    served = next(gen)
    held = _hold_every_slot(served)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.goto(served.url)
        page.wait_for_timeout(2_500)  # refused, and refused again on each retry
        expect(page.locator("#live")).to_have_class("off", timeout=1)
        assert page.text_content("#round") == "…"  # no state has reached it
        for s in held:
            s.close()
        held = []
        freed = time.monotonic()
        expect(page.locator("#live")).to_have_class("live", timeout=5_000)
        expect(page.locator("#round")).to_have_text("Round 1", timeout=1)
        assert time.monotonic() - freed < 5.0
        # and it follows the table from then on
        done = h.d2d("--session", str(tmp_path / "table.toml"), "round", "end")
        assert done.returncode == 0, done.stderr
        expect(page.locator("#round")).to_have_text("Round 1 (ended)", timeout=2_000)
    finally:
        page.close()
        for s in held:
            s.close()
        gen.close()
