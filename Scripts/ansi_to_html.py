#!/usr/bin/env python3
"""Turns a terminal capture with colours (`tmux capture-pane -e -p`) into an HTML page that shows it as the
terminal did: SGR colours (16, 256 and 24-bit), bold, underline and reverse, on a dark background.
usage: ansi_to_html.py < capture.txt > page.html"""

import html
import re
import sys

BASIC = ["#1e1e1e", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5",
         "#666666", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#ffffff"]
FOREGROUND, BACKGROUND = "#d4d4d4", "#1e1e1e"


def palette(index: int) -> str:
    if index < 16:
        return BASIC[index]
    if index < 232:
        index -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (steps[index // 36], steps[index // 6 % 6], steps[index % 6])
    grey = 8 + (index - 232) * 10
    return "#%02x%02x%02x" % (grey, grey, grey)


def apply(codes: list[int], state: dict) -> None:
    i = 0
    while i < len(codes):
        code = codes[i]
        if code == 0:
            state.clear()
        elif code == 1:
            state["bold"] = True
        elif code == 4:
            state["underline"] = True
        elif code == 7:
            state["reverse"] = True
        elif code == 22:
            state.pop("bold", None)
        elif code == 24:
            state.pop("underline", None)
        elif code == 27:
            state.pop("reverse", None)
        elif 30 <= code <= 37 or 90 <= code <= 97:
            state["fg"] = BASIC[code - 30 if code < 90 else code - 82]
        elif 40 <= code <= 47 or 100 <= code <= 107:
            state["bg"] = BASIC[code - 40 if code < 100 else code - 92]
        elif code in (38, 48) and i + 1 < len(codes):
            key = "fg" if code == 38 else "bg"
            if codes[i + 1] == 5 and i + 2 < len(codes):
                state[key] = palette(codes[i + 2])
                i += 2
            elif codes[i + 1] == 2 and i + 4 < len(codes):
                state[key] = "#%02x%02x%02x" % tuple(codes[i + 2 : i + 5])
                i += 4
        elif code == 39:
            state.pop("fg", None)
        elif code == 49:
            state.pop("bg", None)
        i += 1


def style(state: dict) -> str:
    fg, bg = state.get("fg", FOREGROUND), state.get("bg", BACKGROUND)
    if state.get("reverse"):
        fg, bg = bg, fg
    parts = [f"color:{fg}", f"background:{bg}"]
    if state.get("bold"):
        parts.append("font-weight:bold")
    if state.get("underline"):
        parts.append("text-decoration:underline")
    return ";".join(parts)


def main() -> None:
    state: dict = {}
    out = []
    for line in sys.stdin.read().rstrip("\n").split("\n"):
        pieces = re.split(r"\x1b\[([0-9;]*)m", line)
        row = []
        for index, piece in enumerate(pieces):
            if index % 2:
                apply([int(c) for c in piece.split(";") if c] or [0], state)
            elif piece:
                row.append(f'<span style="{style(state)}">{html.escape(piece)}</span>')
        out.append("".join(row))
    print(
        "<!doctype html><meta charset=utf-8><body style=\"margin:0;background:%s\">"
        "<pre style=\"margin:0;padding:12px;font:15px/1.35 'DejaVu Sans Mono',monospace;color:%s\">%s</pre>"
        % (BACKGROUND, FOREGROUND, "\n".join(out))
    )


if __name__ == "__main__":
    main()
