"""The pages ``d2d serve`` sends: one HTML document each for the table and for a
player, their style and script inline (no CDN, no file read from disk) and allowed by
their SHA-256 in the Content-Security-Policy, so no other script can run.

The script inserts every value as text (``textContent``), never as HTML: unit names,
questions and notes come from files others wrote. The map arrives as an SVG document
and is shown through an ``<img>`` (a ``data:`` URL), where no script in it could run.
"""

from __future__ import annotations

import base64
import hashlib

STYLE = """
:root { color-scheme: dark; --bg:#101317; --fg:#e8e6e3; --dim:#9aa3ad; --card:#1a1f26;
  --accent:#ffcc4d; --ok:#4cd97b; --bad:#ff6b6b; }
* { box-sizing: border-box; }
html { font-size: clamp(16px, 0.55rem + 1.05vw, 44px); }
body { margin:0; background:var(--bg); color:var(--fg);
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height:1.35; }
header { display:flex; flex-wrap:wrap; gap:.4rem 1.2rem; align-items:baseline;
  padding:.6rem 1rem; background:#0b0d10; position:sticky; top:0; z-index:2; }
header h1 { font-size:1.3rem; margin:0; }
#round { font-size:1.6rem; font-weight:700; color:var(--accent); }
#live { margin-left:auto; font-weight:700; }
#live.live { color:var(--ok); } #live.off { color:var(--bad); }
main { display:grid; gap:.8rem; padding:.8rem;
  grid-template-columns: repeat(auto-fit, minmax(min(100%, 22rem), 1fr)); }
section { background:var(--card); border-radius:.6rem; padding:.6rem .8rem; min-width:0;
  overflow-x:auto; }
section.wide { grid-column: 1 / -1; }
h2 { font-size:1rem; margin:.1rem 0 .4rem; color:var(--dim); text-transform:uppercase;
  letter-spacing:.05em; }
table { border-collapse:collapse; width:100%; }
td, th { text-align:left; padding:.15rem .4rem; border-bottom:1px solid #2a313a;
  vertical-align:top; }
th { color:var(--dim); font-weight:600; }
ul { margin:0; padding-left:1.1rem; }
.big { font-size:1.5rem; font-weight:700; }
.dim { color:var(--dim); }
.small { font-size:.8em; }
.next { color:var(--accent); font-weight:700; }
#map { width:100%; max-width:64rem; height:auto; background:#fff; border-radius:.4rem; }
@media (max-width: 40rem) { td, th { padding:.1rem .2rem; font-size:.85rem; }
  main { padding:.4rem; gap:.5rem; } }
#blank { position:fixed; inset:0; background:#000; z-index:9; display:none; }
body.blank #blank { display:block; }
.hand { display:flex; flex-wrap:wrap; gap:.5rem; }
.hand button, .go, .ori button { font-size:1.3rem; padding:.6rem .9rem; border-radius:.5rem;
  border:2px solid #3a4450; background:#232a33; color:var(--fg); min-width:4.5rem; }
.hand button.picked, .ori button.picked { border-color:var(--accent); color:var(--accent); }
.go { background:#2f5d3a; border-color:var(--ok); margin-top:.6rem; }
#msg { min-height:1.4rem; margin-top:.4rem; }
select { font-size:1.2rem; padding:.3rem; background:#232a33; color:var(--fg); }
"""

_COMMON_JS = r"""
"use strict";
const q = new URLSearchParams(location.search);
const qs = "?t=" + encodeURIComponent(q.get("t") || "") +
  (q.get("p") ? "&p=" + encodeURIComponent(q.get("p")) : "");
const $ = (id) => document.getElementById(id);
function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}
function row(cells, tag) {
  const tr = el("tr");
  for (const c of cells) {
    if (c instanceof Node) { const td = el(tag || "td"); td.append(c); tr.append(td); }
    else tr.append(el(tag || "td", c));
  }
  return tr;
}
function named(name, side) {
  const box = el("div", name);
  box.append(el("div", side, "dim small"));
  return box;
}
function fill(id, nodes) { const box = $(id); if (box) box.replaceChildren(...nodes); }
function live(on) {
  const s = $("live");
  s.textContent = on ? "\u25cf live" : "\u25cb reconnecting\u2026";
  s.className = on ? "live" : "off";
}
function roundText(r) {
  if (!r || !r.number) return "Before the first round";
  return "Round " + r.number + (r.phase === "ended" ? " (ended)" : "");
}
function connect(path, render) {
  // EventSource retries by itself after a dropped stream, but gives up for good after an
  // HTTP error (a 503 while every slot is taken): then a new one is opened after a
  // growing wait (0.5, 1, 2, then every 3 s, a little jitter), so the page is live again
  // within 5 s of a slot freeing, without a reload.
  let wait = 0;
  const open = () => {
    const es = new EventSource(path + "/events" + qs);
    es.onopen = () => { wait = 0; live(true); };
    es.onerror = () => {
      live(false);
      if (es.readyState === EventSource.CLOSED) {
        wait = Math.min(3000, wait ? wait * 2 : 500);
        setTimeout(open, wait * (0.8 + Math.random() / 5));
      }
    };
    es.onmessage = (ev) => {
      live(true);
      const s = JSON.parse(ev.data);
      document.body.classList.toggle("blank", !!s.blank);
      if (!s.blank) render(s);
    };
  };
  open();
}
"""

_PUBLIC_JS = _COMMON_JS + r"""
function render(s) {
  $("title").textContent = s.scene || s.session || "d2d";
  $("round").textContent = roundText(s.round);
  $("next").textContent = s.next && s.next.length ? "Next: " + s.next.join(", ") : "";
  fill("units", [row(["Unit", "Move", "Actions", "Conditions", "Weapons", "Hand"], "th"),
    ...s.units.map((u) => row([named(u.name, u.player ? (u.faction || "") + " \u00b7 " +
        u.player : (u.faction || "") + (u.faction ? " \u00b7 " : "") + "Non-Player"),
      u.move_left === null ? (u.move === null ? "\u2013" : u.move) : u.move_left + "/" + u.move,
      u.actions_left === null ? "\u2013" : u.actions_left,
      u.conditions.join(", ") + (u.crits ? (u.conditions.length ? ", " : "") + u.crits +
        " Crit" + (u.crits > 1 ? "s" : "") : ""),
      (u.weapons || []).join(", ") || "Hand to Hand",
      u.hand === null ? "" : u.hand + " cards"]))]);
  const c = s.clock;
  $("clock").textContent = "Clock " + c.value + (c.down ? " (counting down)" : "");
  $("event").textContent = c.next_event ? "Next: " + c.next_event.text + " at " +
    c.next_event.at + " (" + c.next_event.ticks + " ticks)" : "No Timed Event ahead";
  const w = s.weather;
  $("weather").textContent = w ? "Wind from " + w.direction + ", " + w.speed_kph +
    " km/h (" + w.beaufort + ")" : "No weather drawn";
  fill("tasks", s.tasks.length ? s.tasks.map((t) => el("li", t.name + ": Challenge " +
    t.challenge + ", Progress " + t.progress + " of " + t.difficulty)) :
    [el("li", "No open task", "dim")]);
  const f = s.fate;
  if (f) {
    $("deck").textContent = f.remaining + " cards left, " + f.discarded + " discarded";
    $("discards").textContent = f.discards.length ? "Discards: " + f.discards.join(" ") : "";
    const odds = ([k, p]) => row([k, p.percent + " (" + p.fraction + ")"]);
    fill("odds", [row(["Next reveal", "Chance"], "th"),
      ...Object.entries(f.next.suit).map(odds), ...Object.entries(f.next.color).map(odds)]);
  }
  const b = s.board;
  $("boardbox").hidden = !b;
  if (b) {
    $("map").src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(b.svg);
    fill("legend", b.legend.map((k) => el("li", k.symbol + "  " + k.text)));
    fill("placed", b.units.map((u) => el("li", u.label + "  " + u.name + ": " + u.space +
      ", facing " + (u.facing || "\u2013"))));
  }
  fill("players", s.players.map((p) => el("li", p.name + ": " + p.hand + " cards in hand" +
    (p.ready ? " \u00b7 card chosen" : ""))));
  fill("log", s.log.slice().reverse().map((e) => el("li", e.command + " \u2014 " + e.summary)));
  fill("oracle", s.oracle.slice().reverse().map((o) => el("li", o.question + " \u2192 " +
    o.answer + " (" + o.card + ")")));
}
connect("", render);
"""

_PLAYER_JS = _COMMON_JS + r"""
let picked = null, upper = true, last = null;
function render(s) {
  last = s;
  $("title").textContent = s.player;
  $("round").textContent = roundText(s.round);
  fill("hand", s.hand.map((c) => {
    const b = el("button", c.face);
    b.title = c.name;
    if (picked === c.face) b.className = "picked";
    b.addEventListener("click", () => { picked = c.face; render(last); });
    return b;
  }));
  if (picked && !s.hand.some((c) => c.face === picked)) picked = null;
  const sel = $("unit");
  const keep = sel.value;
  sel.replaceChildren(...s.units.map((u) => { const o = el("option", u); o.value = u; return o; }));
  if (s.units.includes(keep)) sel.value = keep;
  $("up").className = upper ? "picked" : "";
  $("down").className = upper ? "" : "picked";
  $("chosen").textContent = s.chosen ? "Face down for " + s.chosen.unit + ": " +
    s.chosen.card : "No card chosen yet";
  $("left").textContent = s.deck + " cards in your deck, " + s.discard.length + " discarded";
}
$("up").addEventListener("click", () => { upper = true; render(last); });
$("down").addEventListener("click", () => { upper = false; render(last); });
$("go").addEventListener("click", async () => {
  if (!picked) { $("msg").textContent = "Pick a card first"; return; }
  const body = JSON.stringify({unit: $("unit").value, card: picked + (upper ? "^" : "v")});
  try {
    const r = await fetch("/player/choose" + qs, {method: "POST", body: body,
      headers: {"Content-Type": "application/json"}});
    const a = await r.json();
    $("msg").textContent = a.ok ? "Chosen face down: " + a.card : (a.error || "refused");
  } catch (e) { $("msg").textContent = "Not sent: the connection is down"; }
});
connect("/player", render);
"""

_PUBLIC_BODY = """
<div id="blank"></div>
<header><h1 id="title">d2d</h1><span id="round">…</span><span id="next" class="next"></span>
<span id="live" class="off">○ connecting…</span></header>
<main>
<section class="wide"><h2>Status Bar</h2><table id="units"></table></section>
<section id="boardbox" class="wide" hidden><h2>Map</h2><img id="map" alt="the map">
<h2>Legend</h2><ul id="legend"></ul><h2>On the map</h2><ul id="placed"></ul></section>
<section><h2>Clock</h2><div id="clock" class="big"></div><div id="event"></div></section>
<section><h2>Weather</h2><div id="weather"></div></section>
<section><h2>Tasks</h2><ul id="tasks"></ul></section>
<section><h2>Fate deck</h2><div id="deck" class="big"></div><div id="discards" class="dim">
</div><table id="odds"></table></section>
<section><h2>Players</h2><ul id="players"></ul></section>
<section><h2>Oracle</h2><ul id="oracle"></ul></section>
<section class="wide"><h2>What happened</h2><ul id="log"></ul></section>
</main>
"""

_PLAYER_BODY = """
<div id="blank"></div>
<header><h1 id="title">Your hand</h1><span id="round">…</span>
<span id="live" class="off">○ connecting…</span></header>
<main>
<section class="wide"><h2>Your hand</h2><div id="hand" class="hand"></div>
<p id="left" class="dim"></p></section>
<section class="wide"><h2>Choose face down</h2>
<label>For <select id="unit"></select></label>
<div class="ori"><button id="up" type="button">Upper ^</button>
<button id="down" type="button">Lower v</button></div>
<button id="go" class="go" type="button">Choose face down</button>
<div id="msg"></div><p id="chosen" class="dim"></p></section>
</main>
"""


def _sha(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def _page(title: str, body: str, script: str) -> str:
    return ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            "<meta name=\"referrer\" content=\"no-referrer\">"
            f"<title>{title}</title><style>{STYLE}</style></head>\n<body>{body}"
            f"<script>{script}</script></body></html>\n")


PUBLIC_HTML = _page("d2d — the table", _PUBLIC_BODY, _PUBLIC_JS).encode()
PLAYER_HTML = _page("d2d — your hand", _PLAYER_BODY, _PLAYER_JS).encode()

# Only these inline blocks may run or style the page; images only from data: URLs
# (the map); connections only back to this server.
CSP = ("default-src 'none'; "
       f"script-src {_sha(_PUBLIC_JS)} {_sha(_PLAYER_JS)}; "
       f"style-src {_sha(STYLE)}; img-src data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
