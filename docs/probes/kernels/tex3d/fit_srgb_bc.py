#!/usr/bin/env python3
"""Replays tex3d_probe's srgb.bin and bc.bin against the rules of src/kernel/ops_tex.c (sRGB
linear filtering) and src/kernel/tex_bc.c (signed BC4/BC5), part tex3d.
   python3 fit_srgb_bc.py DIR      (DIR: where the gunzipped records are; about two minutes)
Printed on the H100's records (docs/probes/kernels/tex3d/README.md):
   srgb pairs16 1048576 / 1048576, rows 327680 / 327680, bilin 65536 / 65536
   bc4s 524288 / 524288, bc5s 1048576 / 1048576"""
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
W16 = [1, 2, 3, 7, 16, 31, 64, 85, 127, 128, 129, 171, 200, 230, 254, 255]
d = sys.argv[1] if len(sys.argv) > 1 else '.'

# ---- sRGB: the point-sampled values (the table), each code's exponent one higher for BUMP ----
R = records(d + '/srgb.bin')
T = [Fr(f32(x)) for x in R['point']]
BUMP = {32, 33, 48, 49, 64, 65, 66, 67, 68, 69, 70, 96, 97, 98, 136, 184, 185, 186, 187, 248, 249, 250, 251, 252, 253, 254}
E = [None] + [math.frexp(float(T[a]))[1] + (a in BUMP) for a in range(1, 256)]

def half_away(x):
    if x == 0:
        return 0.0
    e = math.frexp(float(x))[1] - 1
    while Fr(2) ** e > x: e -= 1
    while Fr(2) ** (e + 1) <= x: e += 1
    q = Fr(2) ** (max(e, -14) - 10)
    return float(math.floor(x / q + Fr(1, 2)) * q)

def filt(codes):
    """[(code, weight/256)]: cut to 8 bits below the largest exponent, summed, rounded to half."""
    tx = [(a, w) for a, w in codes if w and a]
    if not tx:
        return 0
    q = Fr(2) ** (max(E[a] for a, w in tx) - 8)
    return bits(half_away(sum(math.trunc(T[a] / q) * q * w for a, w in tx) / 256))

P = R['pairs16']
ok = sum(filt([(a, 256 - W16[k]), (b, W16[k])]) == P[(a * 256 + b) * 16 + k]
         for a in range(256) for b in range(256) for k in range(16))
print('srgb pairs16', ok, '/', len(P))
rows, other = R['rows'], [0, 1, None, 128, 255]
ok = sum(filt([(a, 256 - w), (a if other[j] is None else other[j], w)]) == rows[(a * 5 + j) * 256 + w]
         for a in range(256) for j in range(5) for w in range(256))
print('srgb rows', ok, '/', len(rows))
B, ok = R['bilin'], 0
texel = lambda c, r: r if c % 2 == 0 else c // 2  # row r of the 512x256 texture: pairs (r, p)
for i in range(len(B) // 3):
    ux, uy = f32(B[3 * i]) - 0.5, f32(B[3 * i + 1]) - 0.5
    i0, j0 = math.floor(ux), math.floor(uy)
    wx, wy = math.floor((ux - i0) * 256 + 0.5), math.floor((uy - j0) * 256 + 0.5)
    w11 = (wx * wy + 128) >> 8
    ok += filt([(texel(i0, j0), 256 - wx - wy + w11), (texel(i0 + 1, j0), wx - w11),
                (texel(i0, j0 + 1), wy - w11), (texel(i0 + 1, j0 + 1), w11)]) == B[3 * i + 2]
print('srgb bilin', ok, '/', len(B) // 3)

# ---- signed BC4/BC5 ----
s8 = lambda v: v - 256 if v > 127 else v
def widen(s):
    m = 127 if s < -127 else abs(s)
    v = m * 258 + (m >> 6)
    return -v if s < 0 else v
def bc4s(r0, r1, idx):
    e0, e1 = widen(s8(r0)), widen(s8(r1))
    c0, c1 = max(s8(r0), -127), max(s8(r1), -127)
    dd = c1 - c0
    if idx < 2:
        return (e0, e1)[idx]
    if c0 > c1:
        return {2: e0 + dd * 36, 3: e0 + dd * 72, 4: e1 - dd * 144, 5: e0 + dd * 144, 6: e1 - dd * 72, 7: e1 - dd * 36}[idx]
    return {2: e0 + dd * 48, 3: e0 + dd * 96, 4: e1 - dd * 96, 5: e1 - dd * 48, 6: -32767, 7: 32767}[idx]
R = records(d + '/bc.bin')
snorm = lambda u: round(f32(u) * 32767)
b4, b5 = R['bc4s'], R['bc5s']
print('bc4s', sum(bc4s(b & 255, b >> 8, i) == snorm(b4[b * 8 + i]) for b in range(65536) for i in range(8)), '/', len(b4))
print('bc5s', sum((bc4s(b & 255, b >> 8, i) == snorm(b5[(b * 8 + i) * 2])) + (bc4s(b >> 8, b & 255, i) == snorm(b5[(b * 8 + i) * 2 + 1]))
                  for b in range(65536) for i in range(8)), '/', len(b5))
