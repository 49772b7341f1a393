"""The static site's app icons as PNG (the web manifest's 192 and 512 px
icons, which a browser asks for to offer installing the site): the site's
icon.svg drawn again by signed distances (a card with 99 over a card turned
behind it, on the theme colour), encoded with zlib from the standard
library, so no imaging package is needed."""

from __future__ import annotations

import functools
import math
import struct
import zlib

# The drawing's grid: icon.svg's 32 x 32 view box.
GRID = 32.0
Colour = tuple[int, int, int]
BACKGROUND: Colour = (0x23, 0x30, 0x3D)
BACK: Colour = (0x28, 0x48, 0x6B)
EDGE: Colour = (0x1D, 0x23, 0x2B)
PAPER: Colour = (0xFF, 0xFD, 0xF8)
INK: Colour = (0xB0, 0x46, 0x2A)
TURN = math.radians(-12.0)  # the back card's turn, undone on the point
STROKE = 0.95  # half the digits' stroke width


def _box(x: float, y: float, cx: float, cy: float, hw: float, hh: float, r: float) -> float:
    """Signed distance to a rounded rectangle (negative inside)."""
    qx, qy = abs(x - cx) - hw + r, abs(y - cy) - hh + r
    return math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0) - r


def _segment(x: float, y: float, a: tuple[float, float], b: tuple[float, float]) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((x - a[0]) * dx + (y - a[1]) * dy) / (dx * dx + dy * dy or 1.0)))
    return math.hypot(x - a[0] - t * dx, y - a[1] - t * dy)


def _nine(left: float) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """A 9 as strokes: a loop above, a stem down the right, a foot."""
    x0, x1, y0, ym, y1 = left, left + 3.8, 13.0, 16.6, 20.2
    return [
        ((x0, y0), (x1, y0)),
        ((x0, y0), (x0, ym)),
        ((x0, ym), (x1, ym)),
        ((x1, y0), (x1, y1)),
        ((x0, y1), (x1, y1)),
    ]


STROKES = _nine(8.3) + _nine(15.9)


def _digits(x: float, y: float) -> float:
    # away from them, the distance to their box (less than to them) will do
    away = _box(x, y, 14.0, 16.6, 6.7, 4.6, 0.0)
    if away > 0.5:
        return away
    return min(_segment(x, y, a, b) for a, b in STROKES) - STROKE


def _layers(x: float, y: float) -> list[tuple[float, Colour]]:
    """The shapes at a point, bottom first, as (signed distance, colour)."""
    c, s = math.cos(TURN), math.sin(TURN)
    bx, by = 17 + (x - 17) * c - (y - 16) * s, 16 + (x - 17) * s + (y - 16) * c
    return [
        (_box(x, y, 16, 16, 16, 16, 6), BACKGROUND),
        (_box(bx, by, 17, 16.5, 10, 13.5, 3), BACK),
        (_box(x, y, 14, 15.5, 10.75, 14.25, 3.75), EDGE),
        (_box(x, y, 14, 15.5, 9.25, 12.75, 2.25), PAPER),
        (_digits(x, y), INK),
    ]


def _pixel(x: float, y: float, unit: float) -> bytes:
    """The pixel's colour over a clear background (coverage from distance)."""
    r = g = b = a = 0.0
    for dist, (cr, cg, cb) in _layers(x, y):
        cover = min(1.0, max(0.0, 0.5 - dist * unit))
        if cover:
            r, g, b = r + (cr - r) * cover, g + (cg - g) * cover, b + (cb - b) * cover
            a = a + (1.0 - a) * cover
    if a == 0:
        return b"\0\0\0\0"
    # colours above were mixed as premultiplied over black: undo that
    return bytes((round(r / a), round(g / a), round(b / a), round(a * 255)))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def encode_png(width: int, height: int, rgba: bytes) -> bytes:
    """An 8-bit RGBA PNG of ``rgba`` (rows top first, no filter)."""
    stride = 4 * width
    raw = b"".join(b"\0" + rgba[y * stride : (y + 1) * stride] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(raw, 9))
        + _chunk(b"IEND", b"")
    )


def _fill(out: list[bytes], size: int, x0: int, y0: int, n: int, unit: float) -> None:
    """The pixels of the ``n``-px block at (x0, y0): one colour where no edge
    crosses it (every shape's distance from its centre exceeds its reach)."""
    cx, cy = (x0 + n / 2) / unit, (y0 + n / 2) / unit
    reach = n * 0.7072 + 0.5  # half the block's diagonal and the edge's half pixel, in px
    if n > 1 and all(abs(d) * unit > reach for d, _ in _layers(cx, cy)):
        colour = _pixel(cx, cy, unit)
        for y in range(y0, min(y0 + n, size)):
            for x in range(x0, min(x0 + n, size)):
                out[y * size + x] = colour
        return
    if n == 1:
        out[y0 * size + x0] = _pixel(cx, cy, unit)
        return
    h = n // 2
    for dy in (0, h):
        for dx in (0, h):
            if x0 + dx < size and y0 + dy < size:
                _fill(out, size, x0 + dx, y0 + dy, h, unit)


@functools.cache
def icon_png(size: int) -> bytes:
    """The icon, ``size`` px square, as PNG bytes."""
    unit = size / GRID  # pixels per grid unit
    out = [b""] * (size * size)
    block = 1 << max(0, (size - 1).bit_length())
    _fill(out, size, 0, 0, block, unit)
    return encode_png(size, size, b"".join(out))
