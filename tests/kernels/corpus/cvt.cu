// Conversions (PTX ISA "cvt"): float to integer with each rounding, saturating to the
// destination's range, NaN giving 0; integer to float with each rounding; f64 <-> f32; f32 to
// f16 and bf16 and back.
#include "corpus.h"

KERNEL cvt_f32_int(KPARAMS) {
    const float *a = (const float *)a_;
    ull *out = (ull *)out_;
    int i = GID;
    if (i >= n) return;
    float x = a[i];
    ull *o = out + i * 18;
    o[0] = (uint)__float2int_rn(x); o[1] = (uint)__float2int_rz(x); o[2] = (uint)__float2int_rd(x); o[3] = (uint)__float2int_ru(x);
    o[4] = __float2uint_rn(x); o[5] = __float2uint_rz(x); o[6] = __float2uint_rd(x); o[7] = __float2uint_ru(x);
    o[8] = (ull)__float2ll_rn(x); o[9] = (ull)__float2ll_rz(x); o[10] = (ull)__float2ll_rd(x); o[11] = (ull)__float2ll_ru(x);
    o[12] = __float2ull_rn(x); o[13] = __float2ull_rz(x); o[14] = __float2ull_rd(x); o[15] = __float2ull_ru(x);
    int r;
    asm("cvt.rni.sat.s8.f32 %0, %1;" : "=r"(r) : "f"(x));  // no s8 register type: a 32-bit result
    o[16] = (uint)r;
    unsigned short h;
    asm("cvt.rzi.u16.f32 %0, %1;" : "=h"(h) : "f"(x));
    o[17] = h;
}

KERNEL cvt_f32_narrow(KPARAMS) {
    const float *a = (const float *)a_;
    uint *out = (uint *)out_;
    int i = GID;
    if (i >= n) return;
    float x = a[i];
    uint *o = out + i * 6;
    o[0] = __half_as_ushort(__float2half_rn(x));
    o[1] = __half_as_ushort(__float2half_rz(x));
    o[2] = __bfloat16_as_ushort(__float2bfloat16(x));
    o[3] = __bfloat16_as_ushort(__float2bfloat16_rz(x));
    double d = (double)x; // cvt.f64.f32: exact, NaN payloads
    o[4] = (uint)__double_as_longlong(d);
    o[5] = (uint)(__double_as_longlong(d) >> 32);
}

KERNEL cvt_f64(KPARAMS) {
    const double *a = (const double *)a_;
    ull *out = (ull *)out_;
    int i = GID;
    if (i >= n) return;
    double x = a[i];
    ull *o = out + i * 16;
    o[0] = (uint)__double2int_rn(x); o[1] = (uint)__double2int_rz(x); o[2] = (uint)__double2int_rd(x); o[3] = (uint)__double2int_ru(x);
    o[4] = __double2uint_rn(x); o[5] = __double2uint_rz(x); o[6] = __double2uint_rd(x); o[7] = __double2uint_ru(x);
    o[8] = (ull)__double2ll_rn(x); o[9] = (ull)__double2ll_rz(x); o[10] = (ull)__double2ll_rd(x); o[11] = (ull)__double2ll_ru(x);
    o[12] = __float_as_uint(__double2float_rn(x)); o[13] = __float_as_uint(__double2float_rz(x));
    o[14] = __float_as_uint(__double2float_rd(x)); o[15] = __float_as_uint(__double2float_ru(x));
}

KERNEL cvt_int_float(KPARAMS) {
    const ull *a = (const ull *)a_;
    uint *out = (uint *)out_;
    int i = GID;
    if (i >= n) return;
    ull v = a[i];
    int x = (int)v;
    uint *o = out + i * 16;
    o[0] = __float_as_uint(__int2float_rn(x)); o[1] = __float_as_uint(__int2float_rz(x));
    o[2] = __float_as_uint(__int2float_rd(x)); o[3] = __float_as_uint(__int2float_ru(x));
    o[4] = __float_as_uint(__uint2float_rn((uint)x)); o[5] = __float_as_uint(__uint2float_rz((uint)x));
    o[6] = __float_as_uint(__uint2float_rd((uint)x)); o[7] = __float_as_uint(__uint2float_ru((uint)x));
    o[8] = __float_as_uint(__ll2float_rn((long long)v)); o[9] = __float_as_uint(__ll2float_rz((long long)v));
    o[10] = __float_as_uint(__ll2float_rd((long long)v)); o[11] = __float_as_uint(__ll2float_ru((long long)v));
    long long d = __double_as_longlong(__ll2double_rn((long long)v));
    o[12] = (uint)d; o[13] = (uint)(d >> 32);
    d = __double_as_longlong(__ll2double_rz((long long)v));
    o[14] = (uint)d; o[15] = (uint)(d >> 32);
}

KERNEL cvt_half_float(KPARAMS) {
    const unsigned short *a = (const unsigned short *)a_;
    float *out = (float *)out_;
    int i = GID;
    if (i >= n) return;
    out[i * 2] = __half2float(__ushort_as_half(a[i]));
    out[i * 2 + 1] = __bfloat162float(__ushort_as_bfloat16(a[i]));
}
