/* hipwb/bfloat16_struct.h — hip_bfloat16, ROCm's older bfloat16 struct (hip/hip_bfloat16.h).
 *
 * Not to be confused with __hip_bfloat16 (hipwb/bfloat16.h). Written from the API ROCm documents
 * for hip/hip_bfloat16.h (HIP reference, "Bfloat16 precision"; libraries such as rocPRIM
 * (`rocprim::bfloat16`), hipCUB and rocWMMA (`rocwmma::bfloat16_t`) use this type):
 *   - a trivial, standard-layout struct of one unsigned 16-bit member `data` (the bits);
 *   - `explicit hip_bfloat16(float)` rounds to nearest even; `hip_bfloat16(float, truncate)`
 *     (enum truncate_t { truncate }) drops the low 16 bits; a NaN stays a NaN either way (its
 *     upper bits are kept, and the lowest kept bit is set if only dropped bits were non-zero,
 *     so a signalling NaN does not turn into infinity);
 *   - `operator float()` (implicit) widens exactly; `operator=(float)` rounds to nearest even;
 *   - static `round_to_bfloat16(float)` and `round_to_bfloat16(float, truncate)`;
 *   - unary + and -, the four arithmetic operators (computed in float, rounded to nearest even),
 *     the compound assignments, ++ and -- (by 1), the six comparisons (as floats), and
 *     `std::isinf`, `std::isnan`, `std::iszero` on the bits; `hip_bfloat16_public` is the C
 *     mirror of the struct; `operator<<` prints the float value on host streams.
 * Everything is `__host__ __device__`. The rounding is written on integers, so host and device
 * produce the same bits (no instruction, no library call).
 */
#ifndef HIPWB_BFLOAT16_STRUCT_H
#define HIPWB_BFLOAT16_STRUCT_H

#include "config.h"

struct hip_bfloat16 {
  unsigned short data;

  enum truncate_t { truncate };

  __host__ __device__ hip_bfloat16() = default;
  explicit __host__ __device__ hip_bfloat16(float __f) : data(__rne(__f)) {}
  explicit __host__ __device__ hip_bfloat16(float __f, truncate_t) : data(__trunc(__f)) {}

  __host__ __device__ operator float() const {
    return __builtin_bit_cast(float, (unsigned int)data << 16);
  }
  __host__ __device__ hip_bfloat16 &operator=(const float &__f) {
    data = __rne(__f);
    return *this;
  }
  static __host__ __device__ hip_bfloat16 round_to_bfloat16(float __f) {
    hip_bfloat16 __r;
    __r.data = __rne(__f);
    return __r;
  }
  static __host__ __device__ hip_bfloat16 round_to_bfloat16(float __f, truncate_t) {
    hip_bfloat16 __r;
    __r.data = __trunc(__f);
    return __r;
  }

 private:
  /* the bits' upper half; for a NaN whose payload sits only in the dropped half, the lowest kept
   * payload bit is set so that it stays a NaN */
  static __host__ __device__ unsigned short __trunc(float __f) {
    unsigned int __u = __builtin_bit_cast(unsigned int, __f);
    bool __nan_low_only = (__u & 0x7f800000u) == 0x7f800000u && (__u & 0xffffu) != 0;
    return (unsigned short)((__u >> 16) | (__nan_low_only ? 1u : 0u));
  }
  /* round to nearest, ties to even: add half an ulp of the result minus one, plus the result's
   * own lowest bit; a carry into the exponent is the correct next value (up to infinity) */
  static __host__ __device__ unsigned short __rne(float __f) {
    unsigned int __u = __builtin_bit_cast(unsigned int, __f);
    if ((__u & 0x7f800000u) == 0x7f800000u) return __trunc(__f); /* inf, NaN */
    __u += 0x7fffu + ((__u >> 16) & 1u);
    return (unsigned short)(__u >> 16);
  }
};

typedef struct {
  unsigned short data;
} hip_bfloat16_public;

static_assert(__is_trivial(hip_bfloat16) && __is_standard_layout(hip_bfloat16) &&
                  sizeof(hip_bfloat16) == sizeof(hip_bfloat16_public),
              "hip_bfloat16 must stay a C-compatible 16-bit struct");

#define __HIPWB_BF16S static __host__ __device__ inline
__HIPWB_BF16S hip_bfloat16 operator+(hip_bfloat16 __a) { return __a; }
__HIPWB_BF16S hip_bfloat16 operator-(hip_bfloat16 __a) {
  __a.data = (unsigned short)(__a.data ^ 0x8000u);
  return __a;
}
#define __HIPWB_BF16S_ARITH(OP)                                                     \
  __HIPWB_BF16S hip_bfloat16 operator OP(hip_bfloat16 __a, hip_bfloat16 __b) {     \
    return hip_bfloat16((float)__a OP (float)__b);                                  \
  }                                                                                 \
  __HIPWB_BF16S hip_bfloat16 &operator OP##=(hip_bfloat16 &__a, hip_bfloat16 __b) { \
    return __a = __a OP __b;                                                        \
  }
__HIPWB_BF16S_ARITH(+)
__HIPWB_BF16S_ARITH(-)
__HIPWB_BF16S_ARITH(*)
__HIPWB_BF16S_ARITH(/)
#undef __HIPWB_BF16S_ARITH
#define __HIPWB_BF16S_CMP(OP)                                          \
  __HIPWB_BF16S bool operator OP(hip_bfloat16 __a, hip_bfloat16 __b) { \
    return (float)__a OP (float)__b;                                   \
  }
__HIPWB_BF16S_CMP(<)
__HIPWB_BF16S_CMP(>)
__HIPWB_BF16S_CMP(==)
/* as ROCm documents them: the negations of <, > and == (so a NaN operand gives true) */
__HIPWB_BF16S bool operator<=(hip_bfloat16 __a, hip_bfloat16 __b) { return !(__a > __b); }
__HIPWB_BF16S bool operator>=(hip_bfloat16 __a, hip_bfloat16 __b) { return !(__a < __b); }
__HIPWB_BF16S bool operator!=(hip_bfloat16 __a, hip_bfloat16 __b) { return !(__a == __b); }
#undef __HIPWB_BF16S_CMP
__HIPWB_BF16S hip_bfloat16 &operator++(hip_bfloat16 &__a) { return __a += hip_bfloat16(1.0f); }
__HIPWB_BF16S hip_bfloat16 &operator--(hip_bfloat16 &__a) { return __a -= hip_bfloat16(1.0f); }
__HIPWB_BF16S hip_bfloat16 operator++(hip_bfloat16 &__a, int) {
  hip_bfloat16 __old = __a;
  ++__a;
  return __old;
}
__HIPWB_BF16S hip_bfloat16 operator--(hip_bfloat16 &__a, int) {
  hip_bfloat16 __old = __a;
  --__a;
  return __old;
}
#undef __HIPWB_BF16S

namespace std {
constexpr __host__ __device__ inline bool isinf(hip_bfloat16 __a) {
  return (__a.data & 0x7fffu) == 0x7f80u;
}
constexpr __host__ __device__ inline bool isnan(hip_bfloat16 __a) {
  return (__a.data & 0x7fffu) > 0x7f80u;
}
constexpr __host__ __device__ inline bool iszero(hip_bfloat16 __a) {
  return (__a.data & 0x7fffu) == 0;
}
} /* namespace std */

#if __has_include(<ostream>) && !defined(HIPWB_NO_HOST_STD)
#include <ostream>
inline std::ostream &operator<<(std::ostream &__os, const hip_bfloat16 &__b) {
  return __os << (float)__b;
}
#endif

#endif /* HIPWB_BFLOAT16_STRUCT_H */
