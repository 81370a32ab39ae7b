"""``d2d serve`` — the table on the players' screens: a live page on this machine or the
LAN, and each Player's own page with their hand (docs/serve.md)."""

import json as _json
from typing import Annotated

import typer

from d2d_cli.commands import _app, _state

app = _app.single("serve")


@app.command()
def serve(
    ctx: typer.Context,
    port: Annotated[int, typer.Option(
        min=0, max=65535, help="The port to listen on (0: any free one).")] = 8329,
    lan: Annotated[bool, typer.Option(
        "--lan", help="Listen on every address so phones on the LAN can join (default: "
        "this machine only).")] = False,
    new_links: Annotated[bool, typer.Option(
        "--new-links", help="Make new links: every link handed out before stops working "
        "(default: the links kept with the session are served again).")] = False,
    qr: Annotated[bool | None, typer.Option(
        "--qr/--no-qr", help="Print a QR code for each link (default: when the output is "
        "a terminal).")] = None,
    host: Annotated[str | None, typer.Option(
        metavar="ADDRESS", help="Listen on this one address instead.")] = None,
    json: _app.JsonOpt = False,
) -> None:
    """Serve the session's public table as a live page (it changes within a second of
    any command), and each Player's own page with their hand, where they choose a card
    face down. The first line printed is the page's URL with its token (with --json, one
    JSON object whose result holds url, urls, players, kept), then each Player's link and
    its QR code. The links are kept with the session: restarted, d2d serve hands out the
    same ones and open pages come back by themselves; --new-links revokes them. Type b
    and Enter to blank the players' screens (and again to show them), q or Ctrl-C to stop.

    Example: d2d serve --lan
    """
    from d2d_cli.serve import server

    env = _app.settings(ctx).env
    bind = host or ("0.0.0.0" if lan else "127.0.0.1")
    lan_ips = server.lan_addresses() if bind == "0.0.0.0" else []
    srv = server.start(_state.target(ctx), bind, port, [] if host is None else [host],
                       new_links=new_links)
    addresses = lan_ips if bind == "0.0.0.0" and lan_ips else (
        ["127.0.0.1"] if bind in ("0.0.0.0", "127.0.0.1") else [bind])
    out, err = (env.stdout, env.stderr) if env is not None else (None, None)
    import sys

    out, err = out or sys.stdout, err or sys.stderr

    def announce() -> None:
        public, mine = server.urls(srv, addresses)
        if json:
            result = {"url": public[0], "urls": public, "players": mine,
                      "kept": srv.table.links_kept}
            out.write(_json.dumps({"ok": True, "command": "serve", "result": result}) + "\n")
        else:
            out.write(public[0] + "\n")
            for u in public[1:]:
                out.write(f"also: {u}\n")
            for name, u in mine.items():
                out.write(f"{name}'s page: {u}\n")
            if qr if qr is not None else out.isatty():
                out.write(server.qr_codes([("The table", public[0]), *(
                    (f"{name}'s page", u) for name, u in mine.items())]))
        out.flush()
        if srv.table.links_kept and not json:
            err.write("d2d serve: the same links as last time (--new-links revokes them)\n")
        err.write("d2d serve: b + Enter blanks the players' screens, q + Enter or Ctrl-C "
                  "stops\n")
        err.flush()

    stdin = env.stdin if env is not None else sys.stdin
    server.run(srv, addresses, err, stdin, announce)
