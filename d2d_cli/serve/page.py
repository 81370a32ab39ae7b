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
:root { color-scheme: dark light; --bg:#101317; --fg:#e8e6e3; --dim:#9aa3ad; --card:#1a1f26;
  --head:#0b0d10; --line:#2a313a; --btn:#232a33; --btnline:#3a4450;
  --accent:#ffcc4d; --ok:#4cd97b; --bad:#ff6b6b; --red:#ff7b7b; --black:#e8e6e3;
  --face:#f7f4ec; --facefg:#1b1b1b; --facered:#c0262d; }
@media (prefers-color-scheme: light) {
  :root { --bg:#f4f2ee; --fg:#17191c; --dim:#5b636c; --card:#ffffff; --head:#e6e2da;
    --line:#d5d0c6; --btn:#ffffff; --btnline:#b9b2a5; --accent:#8a5a00; --ok:#1d7a3c;
    --bad:#b3261e; --red:#c0262d; --black:#17191c; } }
* { box-sizing: border-box; }
html { font-size: clamp(16px, 0.55rem + 1.05vw, 44px); }
body { margin:0; background:var(--bg); color:var(--fg); overflow-wrap:anywhere;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height:1.35; }
header { display:flex; flex-wrap:wrap; gap:.4rem 1.2rem; align-items:baseline;
  padding:.5rem 1rem; background:var(--head); position:sticky; top:0; z-index:2; }
header h1 { font-size:1.3rem; margin:0; }
#round { font-size:1.6rem; font-weight:700; color:var(--accent); }
#live { margin-left:auto; font-weight:700; }
#live.live { color:var(--ok); } #live.off, #live.stale { color:var(--bad); }
#headline { font-size:1.25rem; font-weight:700; padding:.3rem 1rem; min-height:1em; }
#headline:empty { display:none; }
main { display:grid; gap:.8rem; padding:.8rem;
  grid-template-columns: repeat(auto-fit, minmax(min(100%, 22rem), 1fr)); }
section { background:var(--card); border-radius:.6rem; padding:.6rem .8rem; min-width:0;
  overflow-x:auto; }
section.wide { grid-column: 1 / -1; }
h2 { font-size:1rem; margin:.1rem 0 .4rem; color:var(--dim); text-transform:uppercase;
  letter-spacing:.05em; }
table { border-collapse:collapse; width:100%; }
td, th { text-align:left; padding:.15rem .4rem; border-bottom:1px solid var(--line);
  vertical-align:top; }
th { color:var(--dim); font-weight:600; overflow-wrap:normal; }
ul { margin:0; padding-left:1.1rem; }
.big { font-size:1.5rem; font-weight:700; }
.dim { color:var(--dim); }
.small { font-size:.8em; }
.next { color:var(--accent); font-weight:700; }
.undone { text-decoration: line-through; color:var(--dim); }
.state { color:var(--bad); font-weight:700; }
#map { display:block; max-width:100%; height:auto; background:#fff; border-radius:.4rem; }
/* The TV: the Status Bar and the whole map side by side within the first screen. */
#top, #top > .col { display:contents; }
@media (min-width: 70rem) and (min-aspect-ratio: 4/3) {
  html { font-size: clamp(16px, 0.4rem + 0.75vw, 32px); }
  #top { display:grid; grid-column: 1 / -1; gap:.8rem;
    grid-template-columns: minmax(0, 1fr) minmax(0, 1.25fr); align-items:start; }
  #top > section, #top > .col { grid-column:auto; }
  #top > .col { display:grid; gap:.8rem; }
  #map { width:100%; max-height: calc(100vh - 9rem); object-fit:contain;
    object-position:left top; }
  #boardbox .aside { display:none; }
}
@media (max-width: 40rem) { td, th { padding:.1rem .2rem; font-size:.85rem; }
  main { padding:.4rem; gap:.5rem; } header { padding:.4rem .5rem; } }
#blank { position:fixed; inset:0; background:#000; z-index:9; display:none; }
body.blank #blank { display:block; }
#gone { display:none; padding:1rem; font-size:1.3rem; }
body.gone #gone { display:block; } body.gone main, body.gone #headline { display:none; }
.hand { display:flex; flex-wrap:wrap; gap:.5rem; }
.hand button { display:flex; flex-direction:column; align-items:center; min-width:5.2rem;
  padding:.35rem .5rem; border-radius:.5rem; border:3px solid var(--btnline);
  background:var(--face); color:var(--facefg); font-size:1rem; line-height:1.15; }
.hand button .rank { font-size:1.6rem; font-weight:800; }
.hand button.red { color:var(--facered); }
.hand button .gives { font-size:.72rem; color:#444; }
.hand button .odds { font-size:.72rem; font-weight:700; color:#0b5394; }
.hand button[aria-pressed="true"] { border-color:var(--accent); outline:3px solid var(--accent); }
.go, .ori button, #buzz { font-size:1.15rem; padding:.5rem .8rem; border-radius:.5rem;
  border:2px solid var(--btnline); background:var(--btn); color:var(--fg); }
.ori button[aria-pressed="true"] { border-color:var(--accent); color:var(--accent);
  font-weight:700; }
.go { background:#2f5d3a; color:#fff; border-color:var(--ok); margin-top:.6rem; }
#up-now { font-size:1.4rem; font-weight:800; color:var(--accent); }
#up-now:empty, #asked:empty { display:none; }
#asked { font-size:1.3rem; font-weight:800; color:#fff; background:#a4262c;
  padding:.5rem .7rem; border-radius:.5rem; margin-bottom:.5rem; }
#msg { min-height:1.4rem; margin-top:.4rem; }
[hidden] { display:none !important; }
#respondbox { display:block; margin-top:.5rem; }
#respond { width:1.3rem; height:1.3rem; vertical-align:middle; }
select { font-size:1.1rem; padding:.3rem; background:var(--btn); color:var(--fg); }
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
function live(on, stale) {
  const s = $("live");
  s.textContent = stale ? "\u26a0 " + stale : on ? "\u25cf live" : "\u25cb reconnecting\u2026";
  s.className = stale ? "stale" : on ? "live" : "off";
}
function roundText(r) {
  if (!r || !r.number) return "Before the first round";
  return "Round " + r.number + (r.phase === "ended" ? " (ended)" : "");
}
function moveText(u) {
  if (u.move_left === null || u.move_left === undefined)
    return u.move === null ? "\u2013" : "Move " + u.move;
  return u.move_left + " of " + u.move;
}
function critText(u) {
  const crits = (u.crit_list || []).map((c) => c.location + " " + c.severity);
  return [u.state, ...u.conditions.filter((c) => !u.state ||
    c.toLowerCase() !== u.state.toLowerCase()), ...crits].filter(Boolean).join(", ");
}
function gone() {
  document.body.classList.add("gone");
  live(false);
  $("live").textContent = "\u2716 link no longer valid";
}
function connect(path, render) {
  // EventSource retries by itself after a dropped stream, but gives up for good after an
  // HTTP error (a 503 while every slot is taken, a 403 for a revoked link): then the page
  // asks once in words (a revoked link says so), else opens a new stream after a growing
  // wait (0.5, 1, 2, then every 3 s, a little jitter), so it is live again within 5 s of
  // a slot freeing, without a reload.
  let wait = 0;
  const open = () => {
    const es = new EventSource(path + "/events" + qs);
    es.onopen = () => { wait = 0; live(true); };
    es.onerror = () => {
      live(false);
      if (es.readyState !== EventSource.CLOSED) return;  // the browser retries by itself
      wait = Math.min(3000, wait ? wait * 2 : 500);
      const again = () => setTimeout(open, wait * (0.8 + Math.random() / 5));
      fetch(path + "/state.json" + qs).then((r) => {
        if (r.status === 403) gone(); else again();
      }, again);
    };
    es.onmessage = (ev) => {
      const s = JSON.parse(ev.data);
      live(true, s.stale);
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
  $("next").textContent = s.asking ? s.asking.attacker + " attacks " + s.asking.target +
    ": waiting for " + s.asking.player + "'s card" :
    s.next && s.next.length ? "Next: " + s.next.join(", ") : "";
  fill("units", [row(["Unit", "Move", "Act.", "State, Crits", "Weapons", "Hand"], "th"),
    ...s.units.map((u) => row([named(u.name, u.player ? (u.faction || "") + " \u00b7 " +
        u.player : (u.faction || "") + (u.faction ? " \u00b7 " : "") + "Non-Player"),
      moveText(u), u.actions_left === null ? "\u2013" : u.actions_left,
      critText(u), (u.weapons || []).join(", ") || "Hand to Hand",
      u.hand === null ? "" : u.hand + (u.hand === 1 ? " card" : " cards")]))]);
  const c = s.clock;
  $("clock").textContent = "Clock " + c.value + (c.down ? " (counting down)" : "");
  $("event").textContent = c.next_event ? "A Timed Event is set at " + c.next_event.at +
    " (" + c.next_event.ticks + " ticks)" : "No Timed Event ahead";
  fill("came", c.revealed.slice().reverse().map((e) => el("li", e.at + ": " + e.text)));
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
    fill("mapevents", (b.events || []).map((e) => el("li", (e.kind === "fog" ?
      "Fog of War Event on " : "Location Event under ") + e.where + ": " + e.text)));
  }
  fill("players", s.players.map((p) => el("li", p.name + ": " + p.hand + " cards in hand" +
    (p.ready ? " \u00b7 card chosen" : ""))));
  const said = (e) => (e.summary || e.command) + (e.undone ? " (undone)" : "");
  fill("log", s.log.slice().reverse().map((e) => el("li", said(e), e.undone ? "undone" : "")));
  const last = s.log.length ? s.log[s.log.length - 1] : null;
  const fight = last && !last.undone && s.result &&
    ["conflict", "hit", "crit", "npc"].includes((last.command || "").split(" ")[0]);
  const head = fight ? s.result.headline : last ? said(last) : "";
  if ($("headline").textContent !== head) $("headline").textContent = head;
  fill("oracle", s.oracle.slice().reverse().map((o) => el("li", o.question + " \u2192 " +
    o.answer + " (" + o.card + ")")));
}
connect("", render);
"""

_PLAYER_JS = _COMMON_JS + r"""
let picked = null, upper = true, last = null, sent = null, wasUp = "", buzz = false;
function cardButton(c) {
  const b = el("button");
  b.type = "button";
  b.className = c.color === "red" ? "red" : "";
  b.append(el("span", c.rank + c.symbol, "rank"));
  b.append(el("span", c.upper === c.lower ? c.upper : "\u2191 " + c.upper, "gives"));
  if (c.upper !== c.lower) b.append(el("span", "\u2193 " + c.lower, "gives"));
  const odds = chance(c.face + (upper ? "^" : "v"));
  if (odds) b.append(el("span", odds, "odds"));
  const on = picked === c.face;
  b.setAttribute("aria-pressed", on ? "true" : "false");
  b.setAttribute("aria-label", c.label + ", " + (upper ? "Upper: " + c.upper :
    "Lower: " + c.lower) + (odds ? ", " + odds : ""));
  b.addEventListener("click", () => { picked = c.face; render(last); });
  return b;
}
// The exact odds of a card (its code with ^ or v) against the coming Conflict, when d2d
// knows it (s.odds: the open question of an NPC's attack); "" otherwise.
function chance(code) {
  const o = last && last.odds && last.odds.cards[code];
  if (!o) return "";
  return "wins " + o.win.percent + (o.both.fraction !== "0/1" ? ", both " + o.both.percent : "") +
    (o.tie.fraction !== "0/1" ? ", tie " + o.tie.percent : "");
}
function signal() {
  if (!buzz) return;
  if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
  try {
    const ctx = new (window.AudioContext || window.webkitAudioContext)();
    const o = ctx.createOscillator(); o.frequency.value = 880; o.connect(ctx.destination);
    o.start(); o.stop(ctx.currentTime + 0.25);
  } catch (e) { /* no sound here */ }
}
function render(s) {
  last = s;
  $("title").textContent = s.player;
  $("round").textContent = roundText(s.round);
  if (picked && !s.hand.some((c) => c.face === picked)) picked = null;
  fill("hand", s.hand.length ? s.hand.map(cardButton) : [el("p", "No card in hand", "dim")]);
  fill("mine", s.mine.map((u) => row([u.name, moveText(u),
    u.actions_left === null ? "\u2013" : u.actions_left, critText(u) || "\u2013"])));
  const up = s.up.length ? "Your " + s.up.join(" and ") + (s.up.length > 1 ? " are" : " is") +
    " up" : "";
  if ($("up-now").textContent !== up) {
    $("up-now").textContent = up;
    if (up && up !== wasUp) signal();
  }
  wasUp = up;
  const a = s.asked;
  const ask = a ? a.attacker + " attacks your " + a.target + " \u2014 choose a card" : "";
  if ($("asked").textContent !== ask) {
    $("asked").textContent = ask;
    if (ask) signal();
  }
  $("last").textContent = s.last || "";
  const sel = $("unit");
  const keep = sel.value;
  sel.replaceChildren(...s.units.map((u) => { const o = el("option", u); o.value = u; return o; }));
  if (s.units.includes(keep)) sel.value = keep;
  if (a && s.units.includes(a.target)) sel.value = a.target;
  $("respondbox").hidden = !a;
  $("up").setAttribute("aria-pressed", upper ? "true" : "false");
  $("down").setAttribute("aria-pressed", upper ? "false" : "true");
  const pc = s.hand.find((c) => c.face === picked);
  $("up").textContent = "Upper \u2191" + (pc ? ": " + pc.upper : "");
  $("down").textContent = "Lower \u2193" + (pc ? ": " + pc.lower : "");
  const o = s.odds;
  $("odds").textContent = o ? "Exact odds against " + o.attacker + "'s Fate (" +
    o.deck.remaining + " Fate cards left): on each card, as you turn it" : "";
  $("chosen").textContent = s.chosen ? "Face down for " + s.chosen.unit + ": " +
    s.chosen.shown + (o && o.chosen ? " \u2014 " + chance(o.chosen.card) : "") :
    "No card chosen yet";
  // A message about a choice the session no longer holds is stale: cleared.
  if (sent && (!s.chosen || s.chosen.card !== sent)) { sent = null; $("msg").textContent = ""; }
  const r = s.ready;
  $("ready").textContent = r.of > 1 ? r.chosen.length + " of " + r.of + " chosen" +
    (r.chosen.length ? " (" + r.chosen.join(", ") + ")" : "") : "";
  $("left").textContent = s.deck + " cards in your deck, " + s.discard.length + " discarded";
}
$("up").addEventListener("click", () => { upper = true; render(last); });
$("down").addEventListener("click", () => { upper = false; render(last); });
$("buzz").addEventListener("click", () => {
  buzz = !buzz;
  $("buzz").setAttribute("aria-pressed", buzz ? "true" : "false");
  $("buzz").textContent = buzz ? "Buzz when my unit is up: on" : "Buzz when my unit is up: off";
  if (buzz) signal();
});
$("go").addEventListener("click", async () => {
  if (!picked) { $("msg").textContent = "Pick a card first"; return; }
  const card = picked + (upper ? "^" : "v");
  const ask = last && last.asked && last.asked.target === $("unit").value;
  const body = JSON.stringify({unit: $("unit").value, card: card,
    respond: !!(ask && $("respond").checked)});
  $("msg").textContent = "sending\u2026";
  try {
    const r = await fetch("/player/choose" + qs, {method: "POST", body: body,
      headers: {"Content-Type": "application/json"}});
    const a = await r.json();
    if (a.ok) { sent = a.card; $("respond").checked = false; }  // each question its own
    $("msg").textContent = a.ok ? "Chosen face down: " + a.card : (a.error || "refused");
  } catch (e) { $("msg").textContent = "Not sent: the connection is down"; }
});
connect("/player", render);
"""

_GONE = """<div id="gone" role="alert">This link no longer works: the Narrator started
d2d serve with new links (or this is not a link it gave). Ask the Narrator for the new link
or its QR code.</div>"""

_PUBLIC_BODY = """
<div id="blank"></div>
<header><h1 id="title">d2d</h1><span id="round">…</span><span id="next" class="next"
aria-live="polite"></span>
<span id="live" class="off">○ connecting…</span></header>
""" + _GONE + """
<div id="headline" aria-live="polite"></div>
<main>
<div id="top">
<div class="col"><section class="wide"><h2>Status Bar</h2><table id="units"></table>
</section>
<section class="wide"><h2>What happened</h2><ul id="log"></ul></section></div>
<section id="boardbox" class="wide" hidden><h2>Map</h2><img id="map" alt="the map">
<ul id="mapevents"></ul>
<div class="aside"><h2>Legend</h2><ul id="legend"></ul><h2>On the map</h2>
<ul id="placed"></ul></div></section>
</div>
<section><h2>Clock</h2><div id="clock" class="big"></div><div id="event"></div>
<ul id="came"></ul></section>
<section><h2>Weather</h2><div id="weather"></div></section>
<section><h2>Tasks</h2><ul id="tasks"></ul></section>
<section><h2>Fate deck</h2><div id="deck" class="big"></div><div id="discards" class="dim">
</div><table id="odds"></table></section>
<section><h2>Players</h2><ul id="players"></ul></section>
<section><h2>Oracle</h2><ul id="oracle"></ul></section>
</main>
"""

_PLAYER_BODY = """
<div id="blank"></div>
<header><h1 id="title">Your hand</h1><span id="round">…</span>
<span id="live" class="off">○ connecting…</span></header>
""" + _GONE + """
<main>
<section class="wide"><div id="asked" role="alert"></div>
<div id="up-now" aria-live="assertive"></div>
<p id="last" aria-live="polite"></p>
<h2>Your units</h2><table><thead><tr><th>Unit</th><th>Move</th><th>Act.</th>
<th>State, Crits</th></tr></thead><tbody id="mine"></tbody></table>
<button id="buzz" type="button" aria-pressed="false">Buzz when my unit is up: off</button>
</section>
<section class="wide"><h2>Your hand</h2><p id="odds" class="dim"></p>
<div id="hand" class="hand"></div>
<p id="left" class="dim"></p></section>
<section class="wide"><h2>Choose face down</h2>
<label>For <select id="unit"></select></label>
<div class="ori"><button id="up" type="button" aria-pressed="true">Upper ↑</button>
<button id="down" type="button" aria-pressed="false">Lower ↓</button></div>
<label id="respondbox" hidden><input id="respond" type="checkbox"> Respond with an Action
(spend it on the defence: a Win then gives everything)</label>
<button id="go" class="go" type="button">Choose face down</button>
<div id="msg" aria-live="polite"></div><p id="chosen" class="dim"></p>
<p id="ready" class="dim" aria-live="polite"></p></section>
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
# A page opened with a link that is not (or no longer) valid: words, no script.
GONE_HTML = ("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
             "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
             "<meta name=\"referrer\" content=\"no-referrer\">"
             f"<title>d2d — link no longer valid</title><style>{STYLE}</style></head>\n"
             f"<body class=\"gone\">{_GONE}</body></html>\n").encode()

# Only these inline blocks may run or style the page; images only from data: URLs
# (the map); connections only back to this server.
CSP = ("default-src 'none'; "
       f"script-src {_sha(_PUBLIC_JS)} {_sha(_PLAYER_JS)}; "
       f"style-src {_sha(STYLE)}; img-src data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
