"""The browser tab's icon, drawn here pixel by pixel: an ivory die showing five.

`python -m app.web_icon` writes `assets/favicon.ico` (16, 32 and 48 pixels, each a PNG inside
the ICO container, as browsers have read them for years); `tests/web` checks that the file
is what this draws. No image library: the shapes are a rounded square and five discs, each
pixel shaded by how much of it they cover (4×4 samples).
"""

from __future__ import annotations

import struct
import sys
import zlib
from pathlib import Path

ICON = Path(__file__).resolve().parents[1] / "assets" / "favicon.ico"
SIZES = (16, 32, 48)

Colour = tuple[int, int, int]
EDGE: Colour = (0x0C, 0x18, 0x1F)  # the page's background colour
FACE: Colour = (0xF4, 0xEE, 0xE0)  # ivory
PIP: Colour = (0x12, 0x23, 0x2D)
CENTRE: Colour = (0xB0, 0x24, 0x1E)  # the middle pip in red, as on many Spanish dice
SAMPLES = 4

# In a 1×1 square: the die's corner radius and border, the pips' radius and places.
RADIUS, BORDER, PIP_RADIUS = 0.2, 0.06, 0.095
PIPS = ((0.28, 0.28), (0.72, 0.28), (0.28, 0.72), (0.72, 0.72))
MIDDLE = (0.5, 0.5)
MARGIN = 0.03


def _in_rounded_square(x: float, y: float, inset: float) -> bool:
    low, high = MARGIN + inset, 1 - MARGIN - inset
    radius = max(RADIUS - inset, 0.0)
    if not (low <= x <= high and low <= y <= high):
        return False
    cx = min(max(x, low + radius), high - radius)
    cy = min(max(y, low + radius), high - radius)
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius**2


def _colour_at(x: float, y: float) -> Colour | None:
    """The colour of the point (x, y) of the unit square, or None outside the die."""
    if not _in_rounded_square(x, y, 0.0):
        return None
    if not _in_rounded_square(x, y, BORDER):
        return EDGE
    if (x - MIDDLE[0]) ** 2 + (y - MIDDLE[1]) ** 2 <= PIP_RADIUS**2:
        return CENTRE
    if any((x - px) ** 2 + (y - py) ** 2 <= PIP_RADIUS**2 for px, py in PIPS):
        return PIP
    return FACE


def pixels(size: int) -> list[bytes]:
    """Rows of RGBA pixels of the icon at `size`×`size`."""
    rows = []
    for row in range(size):
        line = bytearray()
        for column in range(size):
            red = green = blue = covered = 0
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    colour = _colour_at(
                        (column + (sx + 0.5) / SAMPLES) / size, (row + (sy + 0.5) / SAMPLES) / size
                    )
                    if colour is not None:
                        red, green, blue = red + colour[0], green + colour[1], blue + colour[2]
                        covered += 1
            if covered:
                line += bytes((red // covered, green // covered, blue // covered))
                line.append(round(255 * covered / SAMPLES**2))
            else:
                line += b"\0\0\0\0"
        rows.append(bytes(line))
    return rows


def png(size: int) -> bytes:
    """The icon at `size` as a PNG file (8-bit RGBA, no filter)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\0" + row for row in pixels(size))
    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def ico(sizes: tuple[int, ...] = SIZES) -> bytes:
    """An ICO file holding one PNG per size."""
    images = [png(size) for size in sizes]
    offset = 6 + 16 * len(images)
    directory = b""
    for size, image in zip(sizes, images, strict=True):
        directory += struct.pack(
            "<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(image), offset
        )
        offset += len(image)
    return struct.pack("<HHH", 0, 1, len(images)) + directory + b"".join(images)


def main() -> int:
    ICON.write_bytes(ico())
    sys.stderr.write(f"wrote {ICON}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
