"""A small SVG histogram, written by hand (no plotting dependency).

One panel per (variant, players): for each number of cards left, a bar for
the exact solver's fewest cards left and one for the blind policy. The y
axis is logarithmic: perfect clears outnumber everything else by far.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from xml.sax.saxutils import escape

BINS = 21  # 0..19 cards left, then "20+"
W, H, LEFT, TOP, BOTTOM = 720, 190, 56, 28, 34
EXACT, BLIND = "#1f6f8b", "#e0a030"


@dataclass(frozen=True)
class Panel:
    title: str
    exact: Counter[int]
    blind: Counter[int]


def _binned(c: Counter[int]) -> list[int]:
    out = [0] * BINS
    for k, v in c.items():
        out[min(k, BINS - 1)] += v
    return out


def histogram(panels: list[Panel]) -> str:
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H * len(panels) + 30}" '
        'font-family="sans-serif" font-size="11">',
        '<rect width="100%" height="100%" fill="white"/>',
        f'<rect x="{LEFT}" y="6" width="10" height="10" fill="{EXACT}"/>'
        f'<text x="{LEFT + 14}" y="15">fewest cards left, order known (exact solver)</text>'
        f'<rect x="{LEFT + 300}" y="6" width="10" height="10" fill="{BLIND}"/>'
        f'<text x="{LEFT + 314}" y="15">cards left by the blind policy, same seeds</text>',
    ]
    for i, p in enumerate(panels):
        parts.append(_panel(p, 30 + i * H))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _panel(p: Panel, y0: int) -> str:
    exact, blind = _binned(p.exact), _binned(p.blind)
    top = max([1, *exact, *blind])
    decades = max(1, math.ceil(math.log10(top)))
    plot_h = H - TOP - BOTTOM
    plot_w = W - LEFT - 10
    base = y0 + TOP + plot_h
    slot = plot_w / BINS

    def height(v: int) -> float:
        # Log scale with a floor: a count of 1 is one step high, 10**decades
        # is the full height, 0 draws nothing.
        return 0.0 if v == 0 else plot_h * (1 + math.log10(v)) / (1 + decades)

    out = [f'<text x="{LEFT}" y="{y0 + 16}" font-weight="bold">{escape(p.title)}</text>']
    for d in range(decades + 1):  # grid lines at 1, 10, 100, ...
        y = base - height(10**d)
        out.append(f'<line x1="{LEFT}" x2="{W - 10}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{LEFT - 4}" y="{y + 4:.1f}" text-anchor="end">{10**d}</text>')
    out.append(f'<line x1="{LEFT}" x2="{W - 10}" y1="{base}" y2="{base}" stroke="#888"/>')
    for b in range(BINS):
        x = LEFT + b * slot
        for j, (vals, colour) in enumerate(((exact, EXACT), (blind, BLIND))):
            v = vals[b]
            if v == 0:
                continue
            h = height(v)
            bx = x + 2 + j * (slot - 4) / 2
            out.append(f'<rect x="{bx:.1f}" y="{base - h:.1f}" width="{(slot - 4) / 2:.1f}" '
                       f'height="{h:.1f}" fill="{colour}"><title>{v}</title></rect>')
        label = f"{b}" if b < BINS - 1 else f"{b}+"
        out.append(f'<text x="{x + slot / 2:.1f}" y="{base + 13}" text-anchor="middle">'
                   f"{label}</text>")
    out.append(f'<text x="{LEFT + plot_w / 2:.1f}" y="{base + 28}" text-anchor="middle">'
               "cards left (count on a log scale; hover a bar for its count)</text>")
    return "\n".join(out)
