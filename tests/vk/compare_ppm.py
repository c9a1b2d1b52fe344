#!/usr/bin/env python3
"""compare_ppm.py [--tolerance N] [--diff OUT.ppm] GOT.ppm REFERENCE.ppm

Compares two binary PPM (P6, 8-bit) images pixel by pixel: they match when they have the same
size and no channel of any pixel differs by more than N (default 0, exact). Prints how many
pixels differ and by how much at most, and the first few; with --diff, a failed comparison also
writes an image of the differences (white where a pixel is beyond the tolerance, the reference
dimmed elsewhere). Exit status 0 when they match, 1 when they differ, 2 on a bad file."""
import argparse
import sys


def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    fields, pos = [], 0
    while len(fields) < 4:
        while pos < len(data) and data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            while pos < len(data) and data[pos:pos + 1] != b"\n":
                pos += 1
            continue
        start = pos
        while pos < len(data) and not data[pos:pos + 1].isspace():
            pos += 1
        if start == pos:
            raise ValueError(f"{path}: truncated header")
        fields.append(data[start:pos])
    if fields[0] != b"P6" or int(fields[3]) != 255:
        raise ValueError(f"{path}: not a binary 8-bit PPM (P6, maxval 255)")
    w, h = int(fields[1]), int(fields[2])
    pixels = data[pos + 1:pos + 1 + w * h * 3]
    if len(pixels) != w * h * 3:
        raise ValueError(f"{path}: {len(pixels)} bytes of pixels, {w}x{h} needs {w * h * 3}")
    return w, h, pixels


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tolerance", type=int, default=0)
    ap.add_argument("--diff")
    ap.add_argument("got")
    ap.add_argument("reference")
    a = ap.parse_args()
    try:
        gw, gh, got = read_ppm(a.got)
        rw, rh, ref = read_ppm(a.reference)
    except (OSError, ValueError) as e:
        print(f"compare_ppm.py: {e}")
        return 2
    if (gw, gh) != (rw, rh):
        print(f"compare_ppm.py: FAILED: {a.got} is {gw}x{gh}, the reference {a.reference} is {rw}x{rh}")
        return 1
    bad, worst, shown = 0, 0, []
    mask = bytearray(ref)
    for i in range(0, len(ref), 3):
        d = max(abs(got[i + c] - ref[i + c]) for c in range(3))
        worst = max(worst, d)
        if d > a.tolerance:
            bad += 1
            mask[i:i + 3] = b"\xff\xff\xff"
            if len(shown) < 5:
                p = i // 3
                shown.append(f"  ({p % gw}, {p // gw}): {tuple(got[i:i + 3])}, the reference has {tuple(ref[i:i + 3])}")
        else:
            mask[i:i + 3] = bytes(v // 4 for v in ref[i:i + 3])
    if bad == 0:
        print(f"compare_ppm.py: {a.got} matches {a.reference} ({gw}x{gh}; largest channel difference {worst}, "
              f"tolerance {a.tolerance}): PASSED")
        return 0
    print(f"compare_ppm.py: FAILED: {bad} of {gw * gh} pixels differ from {a.reference} by more than {a.tolerance} "
          f"(largest difference {worst}):")
    print("\n".join(shown))
    if a.diff:
        with open(a.diff, "wb") as f:
            f.write(b"P6\n%d %d\n255\n" % (gw, gh) + bytes(mask))
        print(f"compare_ppm.py: the differences are white in {a.diff}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
