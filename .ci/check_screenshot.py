#!/usr/bin/env python3
"""Checks that a demo screenshot shows a drawn scene, not a blank screen.

Decodes the PNG with the standard library only (8-bit RGB or RGBA, not
interlaced, as Bevy writes them), then requires many distinct colours and a
good share of pixels that are not the most common (background) colour.
"""
import struct
import sys
import zlib
from collections import Counter


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise SystemExit(f"{path}: not a PNG")
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise SystemExit(f"{path}: unsupported PNG (depth {depth}, colour type {colour})")
    channels = 4 if colour == 6 else 3
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous, pos = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[pos], bytearray(raw[pos + 1:pos + 1 + stride])
        pos += 1 + stride
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            up_left = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                predictor = left if pa <= pb and pa <= pc else (up if pb <= pc else up_left)
                line[i] = (line[i] + predictor) & 255
        rows.append(bytes(line))
        previous = line
    return width, height, channels, rows


def main():
    path = sys.argv[1]
    width, height, channels, rows = decode(path)
    pixels = Counter()
    for row in rows[::2]:
        for x in range(0, width * channels, channels * 2):
            pixels[row[x:x + 3]] += 1
    total = sum(pixels.values())
    background, count = pixels.most_common(1)[0]
    drawn = 1 - count / total
    print(f"{path}: {width}x{height}, {len(pixels)} distinct colours, {drawn:.0%} not background {tuple(background)}")
    if width < 640 or height < 360:
        raise SystemExit("screenshot too small")
    if len(pixels) < 40:
        raise SystemExit("too few colours: the scene was not drawn")
    if drawn < 0.3:
        raise SystemExit("mostly background: the scene was not drawn")


if __name__ == "__main__":
    main()
