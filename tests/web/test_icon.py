"""The site's PNG icons: a valid PNG of the size asked (read back with zlib
from the standard library), the icon drawn in it (the card's paper at the
centre, the background's colour near a corner, clear past the rounded
corner, the 99 in ink, smoothed edges)."""

from __future__ import annotations

import struct
import zlib

import pytest

from thegame.puzzles.icon import BACKGROUND, INK, PAPER, encode_png, icon_png


def decode(png: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and rows (RGBA) of an unfiltered 8-bit RGBA PNG."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks = 8, {}
    while at < len(png):
        (n,) = struct.unpack(">I", png[at : at + 4])
        kind, data = png[at + 4 : at + 8], png[at + 8 : at + 8 + n]
        (crc,) = struct.unpack(">I", png[at + 8 + n : at + 12 + n])
        assert zlib.crc32(kind + data) == crc, kind
        chunks[kind] = chunks.get(kind, b"") + data
        at += 12 + n
    w, h, depth, colour, _, _, _ = struct.unpack(">IIBBBBB", chunks[b"IHDR"])
    assert (depth, colour) == (8, 6) and b"IEND" in chunks
    raw = zlib.decompress(chunks[b"IDAT"])
    rows = [raw[y * (4 * w + 1) : (y + 1) * (4 * w + 1)] for y in range(h)]
    assert all(r[0] == 0 for r in rows)
    return w, h, [r[1:] for r in rows]


def rgba(rows: list[bytes], x: int, y: int) -> tuple[int, ...]:
    return tuple(rows[y][4 * x : 4 * x + 4])


def test_a_png_round_trips() -> None:
    pixels = bytes(range(2 * 3 * 4))
    w, h, rows = decode(encode_png(2, 3, pixels))
    assert (w, h) == (2, 3) and b"".join(rows) == pixels


@pytest.mark.parametrize("size", [192, 512])
def test_the_icon_is_drawn_at_its_size(size: int) -> None:
    w, h, rows = decode(icon_png(size))
    assert (w, h) == (size, size)
    unit = size // 32
    assert rgba(rows, 0, 0)[3] == 0  # past the rounded corner
    assert rgba(rows, size - 3 * unit, 2 * unit) == (*BACKGROUND, 255)
    assert rgba(rows, 14 * unit, 27 * unit) == (*PAPER, 255)  # the card, below the 99
    assert rgba(rows, 12 * unit + unit // 2, 15 * unit) == (*INK, 255)  # the first 9's stem
    alphas = {px[3] for r in rows for px in zip(*[iter(r)] * 4, strict=True)}
    assert {0, 255} < alphas  # edges smoothed, not only clear and solid
