#!/usr/bin/env python3
# Part gradlod2 (issue 23): replays the texlod2 records (g2, g3, gc .out.gz beside this file)
# against the engine's .grad level-of-detail arithmetic (src/kernel/ops_tex.c: grad_len3,
# grad_diag, grad_lod_texels, cube_grad) and prints how many samples each model gets exact.
#   python3 fit_gradlod2.py            # cube maps: old and new cube_grad; diagonal variants
# Each record line is "section: inputs' f32 bits = result's bits"; the levels hold their index,
# so round(result * 256) is the level of detail in 1/256 (clamped to the levels).
import gzip, math, struct, collections, os

HERE = os.path.dirname(os.path.abspath(__file__))
LOG2 = [0, 2, 4, 5, 6, 8, 9, 11, 12, 13, 15, 16, 18, 19, 20, 22, 23, 24, 26, 27, 28, 30, 31, 32, 34, 35, 36, 38,
        39, 40, 42, 43, 44, 45, 47, 48, 49, 50, 52, 53, 54, 55, 57, 58, 59, 60, 62, 63, 64, 65, 66, 68, 69, 70, 71,
        72, 74, 75, 76, 77, 78, 79, 81, 82, 83, 84, 85, 86, 88, 89, 90, 91, 92, 93, 94, 95, 97, 98, 99, 100, 101,
        102, 103, 104, 105, 106, 107, 109, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123,
        124, 125, 126, 127, 128, 129, 130, 131, 132, 133, 135, 136, 137, 137, 138, 139, 140, 141, 142, 143, 144,
        145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 162, 163, 164,
        165, 166, 167, 168, 169, 170, 171, 172, 173, 173, 174, 175, 176, 177, 178, 179, 180, 181, 181, 182, 183,
        184, 185, 186, 187, 188, 188, 189, 190, 191, 192, 193, 194, 195, 195, 196, 197, 198, 199, 200, 200, 201,
        202, 203, 204, 205, 205, 206, 207, 208, 209, 210, 210, 211, 212, 213, 214, 214, 215, 216, 217, 218, 218,
        219, 220, 221, 222, 222, 223, 224, 225, 226, 226, 227, 228, 229, 229, 230, 231, 232, 233, 233, 234, 235,
        236, 236, 237, 238, 239, 239, 240, 241, 242, 242, 243, 244, 245, 245, 246, 247, 248, 248, 249, 250, 251,
        251, 252, 253, 253, 254, 255, 255]


def f32(x): return struct.unpack('<f', struct.pack('<f', x))[0]
def fb(h): return struct.unpack('<f', struct.pack('<I', int(h, 16)))[0]
def ilogb(v): return math.frexp(v)[1] - 1


def log2fx(v):
    v = f32(v)
    if v <= 0: return -10**9
    u = struct.unpack('<I', struct.pack('<f', v))[0]
    return (((u >> 23) & 0xff) - 127) * 256 + LOG2[(u >> 15) & 0xff]


def trunc9(v):
    v = abs(v)
    if v == 0 or not math.isfinite(v): return v
    q = 2.0**(ilogb(v) - 9)
    return math.floor(v / q) * q


def round_below(v, ref, bits):
    if v == 0 or ref == 0: return v
    q = 2.0**(ilogb(ref) - bits)
    return math.floor(v / q + 0.5) * q


def len3(x, y, z):
    v = sorted([trunc9(x), trunc9(y), trunc9(z)], reverse=True)
    return v[0] + round_below(v[1] * 11 / 32, v[1], 11) + round_below(v[2] * 0.25, v[2], 11)


def diag_engine(d):  # grad_diag: 11/16 of the length (one axis: rounded on 10 bits)
    nz = [trunc9(x) for x in d if trunc9(x) != 0]
    if len(nz) == 1: return round_below(nz[0] * 11 / 16, nz[0], 10)
    return 11 / 16 * len3(*d)


def mul_11_16(x):  # x/2 + x/8 + x/16 of 13 leading bits, each term cut
    if x == 0: return 0
    e = ilogb(x); m = int(x / 2.0**(e - 12))
    return ((m >> 1) + (m >> 3) + (m >> 4)) * 2.0**(e - 12)


def diag_components_first(d):  # the variant docs/images.md describes (not adopted)
    nz = [trunc9(x) for x in d if trunc9(x) != 0]
    if len(nz) == 1: return round_below(nz[0] * 11 / 16, nz[0], 10)
    return len3(*[mul_11_16(abs(x)) for x in d])


def lod_texels(aniso, a, b, diag=diag_engine, isotropic_max=False):
    a = [math.copysign(trunc9(x), x) for x in a]; b = [math.copysign(trunc9(x), x) for x in b]
    if isotropic_max:
        m = max(len3(*a), len3(*b))
        return log2fx(m) if m > 0 else -10**9
    s = [a[i] + b[i] for i in range(3)]; d = [a[i] - b[i] for i in range(3)]
    major = max(len3(*a), len3(*b), diag(s), diag(d))
    if major <= 0: return -10**9
    lm = log2fx(major); lod = lm
    if aniso > 1:
        cx = a[1] * b[2] - a[2] * b[1]; cy = a[2] * b[0] - a[0] * b[2]; cz = a[0] * b[1] - a[1] * b[0]
        area = math.sqrt(cx * cx + cy * cy + cz * cz)
        lod = lm - log2fx(min(aniso, 16))
        if area > 0: lod = max(lod, log2fx(area) - lm)
        lod = min(lod, lm)
    return lod


def major_axis(p):
    ax, ay, az = map(abs, p)
    return 2 if az >= ay and az >= ax else 1 if ay >= ax else 0


def st(q, m, pos):
    if m == 2: return (q[0] if pos else -q[0]), -q[1]
    if m == 1: return q[0], (q[2] if pos else -q[2])
    return (-q[2] if pos else q[2]), -q[1]


def cube_grad_old(c, g, n):  # part gradlod: 22-bit fixed point on the direction's face
    m = major_axis(c); pos = c[m] >= 0; one = 4194304.0
    def fx(p):
        ma = abs(p[m]); s, t = st(p, m, pos)
        return ((one / 2 + math.floor(s / ma * one / 2)) / one, (one / 2 + math.floor(t / ma * one / 2)) / one)
    s0, s1 = fx(c), fx([f32(c[i] + g[i]) for i in range(3)])
    return [(s1[0] - s0[0]) * n, (s1[1] - s0[1]) * n, 0], False


def cube_grad_new(c, g, n):  # part gradlod2: f32 face coordinates, unfolded across an edge
    m = major_axis(c); pos = c[m] >= 0; sg = 1.0 if pos else -1.0
    p = [f32(c[i] + g[i]) for i in range(3)]; m2 = major_axis(p)
    r0 = f32(1 / abs(c[m])); c1 = [f32(x * r0) for x in c]
    r = f32(1 / abs(p[m2])); q = [f32(x * r) for x in p]
    if m2 != m:
        q[m] = sg; q[m2] = math.copysign(f32(2 - f32(sg * p[m] * r)), p[m2])
    s0, t0 = st(c1, m, pos); s1, t1 = st(q, m, pos)
    return [f32(s1 - s0) * n / 2, f32(t1 - t0) * n / 2, 0], m2 != m


def records(name):
    with gzip.open(os.path.join(HERE, name + '.out.gz'), 'rt') as f:
        for line in f:
            if ':' not in line: continue
            sec, rest = line.split(':', 1); ins, res = rest.split('=')
            yield sec, [fb(h) for h in ins.split()], fb(res.strip())


def clampq(q, levels): return max(0, min(q, (levels - 1) * 256))


def cube():
    cnt = collections.Counter()
    for sec, v, r in records('gc'):
        aniso = int(sec.split('a')[1]); c = v[0:3]; h = round(r * 256)
        for name, fn in (('gradlod', cube_grad_old), ('gradlod2', cube_grad_new)):
            a, ca = fn(c, v[3:6], 64); b, cb = fn(c, v[6:9], 64)
            crossed = major_axis([c[k] + v[3 + k] for k in range(3)]) != major_axis(c) or \
                major_axis([c[k] + v[6 + k] for k in range(3)]) != major_axis(c)
            q = clampq(lod_texels(aniso, a, b, isotropic_max=(name == 'gradlod2' and (ca or cb))), 7)
            cnt[(sec, name, 'crossing' if crossed else 'on the face', min(abs(q - h), 3))] += 1
    for k in sorted(cnt): print('cube', k, cnt[k])


def diagonals():
    for name, W, L, dims in (('g2', 256, 9, 2), ('g3', 64, 7, 3)):
        cnt = collections.Counter()
        for sec, v, r in records(name):
            an = 0 if name == 'g3' else int(sec.split()[1][1:])
            a = [0, 0, 0]; b = [0, 0, 0]
            for k in range(dims): a[k] = v[k] * W; b[k] = v[dims + k] * W
            h = round(r * 256); cnt[(sec, 'n')] += 1
            for dn, df in (('11/16 of the length', diag_engine), ('components first', diag_components_first)):
                cnt[(sec, dn)] += clampq(lod_texels(an, list(a), list(b), df), L) == h
        for k in sorted(cnt): print(name, k, cnt[k])


if __name__ == '__main__':
    cube()
    diagonals()
