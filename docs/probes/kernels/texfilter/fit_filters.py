#!/usr/bin/env python3
"""Replays filter_probe's filt1/filt2/filt3.bin (linear filtering on the H100) against the rules
src/kernel/ops_tex.c implements and prints the agreement per format (docs/images.md, "Sampling").
   python3 fit_filters.py DIR        (DIR: where the .bin records are; they are not kept in the tree)"""
import math, struct, sys
from fractions import Fraction as Fr

def records(path):
    out, b, i = {}, open(path, 'rb').read(), 0
    while i < len(b):
        name = b[i:i + 32].split(b'\0')[0].decode()
        n, esz = struct.unpack_from('<II', b, i + 32)
        i += 40
        out[name] = struct.unpack_from('<%dI' % n, b, i)
        i += n * esz
    return out

f32 = lambda u: struct.unpack('<f', struct.pack('<I', u))[0]
bits = lambda x: struct.unpack('<I', struct.pack('<f', x))[0]
h2f = lambda h: struct.unpack('<e', struct.pack('<H', h))[0]
W16 = [1, 2, 3, 7, 16, 31, 64, 85, 127, 128, 129, 171, 200, 230, 254, 255]

def round_away(x, mant, emin):
    """x rounded to `mant` fraction bits, ties away from zero (None past the format's range)."""
    if x == 0:
        return 0.0
    s, a = (-1 if x < 0 else 1), abs(x)
    e = math.frexp(float(a))[1] - 1
    while Fr(2) ** e > a: e -= 1
    while Fr(2) ** (e + 1) <= a: e += 1
    q = Fr(2) ** (max(e, emin) - mant)
    n = math.floor(a / q + Fr(1, 2))
    try:
        return float(s * n * q)
    except OverflowError:
        return None

def block(texels, cut):
    """texels [(value, weight/256)]: cut to `cut` bits below the largest's leading bit, summed."""
    nz = [abs(t) for t, w in texels if w and t]
    if nz:
        q = Fr(2) ** (max(math.frexp(float(t))[1] for t in nz) - cut)
        texels = [(math.trunc(t / q) * q, w) for t, w in texels]
    return sum(t * w for t, w in texels) / 256

def pairs(R, name, value, rule):
    P, T = R[name + ' pairs'], R[name + ' texels']
    ok = tot = 0
    for r in range(256):
        for p in range(0, 256, 4):  # every 4th pair keeps this quick
            a, b = T[r * 512 + 2 * p], T[r * 512 + 2 * p + 1]
            va, vb = value(a), value(b)
            if va is None or vb is None:
                continue
            for k, w in enumerate(W16):
                m = rule([(va, 256 - w), (vb, w)])
                tot += 1
                ok += m is not None and bits(m) == P[(r * 256 + p) * 16 + k]
    print('%-8s %7d / %7d' % (name, ok, tot))

d = sys.argv[1] if len(sys.argv) > 1 else '.'
R = records(d + '/filt3.bin')
pairs(R, 'float', lambda u: Fr(f32(u)), lambda t: round_away(block(t, 28), 23, -126))
R = records(d + '/filt2.bin')
pairs(R, 'half', lambda h: None if (h & 0x7c00) == 0x7c00 else Fr(h2f(h)), lambda t: round_away(block(t, 15), 10, -14))
snorm = lambda v: Fr(max((v ^ 0x8000) - 0x8000, -32767))
pairs(R, 'snorm16', snorm, lambda t: float(math.floor(block(t, 60) + Fr(1, 2))) / 32767 if True else None)
R = records(d + '/filt1.bin')
def snorm8(t):  # the 8-bit values summed (of 127 * 256), widened to 16 bits
    L = int(sum(v * w for v, w in t))
    return max(L + ((((L >> 4) * 257) + 1024) >> 11), -32767) / 32767
pairs(R, 'snorm8', lambda v: Fr((v ^ 0x80) - 0x80), snorm8)
pairs(R, 'unorm8', lambda v: Fr(v * 257), lambda t: float(math.floor(block(t, 60) + Fr(1, 2))) / 65535)
