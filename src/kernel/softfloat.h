/*
 * src/kernel/softfloat.h: exact rounding of binary values to the narrow float formats PTX
 * has (f32, f16, bf16, tf32), in every rounding mode, without the host's floating-point
 * environment. The families (ops_float.c, ops_cvt.c) use it where the host has no such type
 * (half, bfloat16) and for conversions whose rounding mode the instruction names.
 */
#ifndef EXTMEM_KERNEL_SOFTFLOAT_H
#define EXTMEM_KERNEL_SOFTFLOAT_H

#include <stdbool.h>
#include <stdint.h>

/* Rounding modes (PTX .rn .rz .rm .rp, and .rna: to nearest, ties away from zero). */
enum ksf_mode { KSF_RN, KSF_RZ, KSF_RM, KSF_RP, KSF_RNA };

/* A binary interchange format: mantissa bits (without the implicit one) and exponent bits. */
struct ksf_fmt {
    int mant, exp;
};
extern const struct ksf_fmt ksf_f16, ksf_bf16, ksf_f32, ksf_tf32, ksf_f64;

/* (-1)^sign * m * 2^e rounded to fmt in mode: the format's bits (sign included). Overflow
 * gives infinity or the largest finite value as IEEE 754 says for the mode. */
uint64_t ksf_round(const struct ksf_fmt *fmt, bool sign, uint64_t m, int e, enum ksf_mode mode);
/* A finite or infinite double rounded to fmt (NaN: the caller decides the NaN's bits). */
uint64_t ksf_from_double(const struct ksf_fmt *fmt, double d, enum ksf_mode mode);
/* A value of fmt (not NaN) as a double, exactly (every narrow format fits in a double). */
double ksf_to_double(const struct ksf_fmt *fmt, uint64_t bits);

/* Classification of fmt's bits. */
bool ksf_is_nan(const struct ksf_fmt *fmt, uint64_t bits);
bool ksf_is_subnormal(const struct ksf_fmt *fmt, uint64_t bits); /* nonzero with a zero exponent */
uint64_t ksf_sign_bit(const struct ksf_fmt *fmt);

/* The double nearest to the exact value hi + lo (hi = RN(hi + lo)) rounded to odd: rounding it
 * again to a format of at most 51 mantissa bits rounds the exact value once (no double
 * rounding). */
double ksf_round_odd(double hi, double lo);
/* hi = RN(a + b) and the exact error lo: a + b == hi + lo (Knuth's TwoSum). */
void ksf_two_sum(double a, double b, double *hi, double *lo);

/* a * b + c of f64 bit patterns rounded once in mode, in integer arithmetic (the C library's
 * fma() honours only round-to-nearest on some hosts: mingw-w64's under wine). False for
 * operands it leaves to the host (infinities, NaNs, zeros) or without 128-bit integers. */
bool ksf_fma64(uint64_t a, uint64_t b, uint64_t c, enum ksf_mode mode, uint64_t *out);

#endif /* EXTMEM_KERNEL_SOFTFLOAT_H */
