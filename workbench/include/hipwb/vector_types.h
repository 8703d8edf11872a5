/* hipwb/vector_types.h — HIP's short vector types (float4, int2, uchar4, double2, ...).
 *
 * TYPE{1,2,3,4} for TYPE in char, uchar, short, ushort, int, uint, long, ulong, longlong,
 * ulonglong, float, double: a struct with members .x/.y/.z/.w, make_TYPEN(...) constructors,
 * element-wise arithmetic with vectors and scalars, compound assignment, and bitwise/shift/modulo
 * operators for the integer types.
 *
 * Layout follows HIP, whose vector types wrap clang's ext_vector_type: 1-, 2- and 4-element types
 * are aligned to their full size (float2: 8 bytes, float4 and double2: 16, double4: 32), so an
 * aligned copy of a float4 is one 128-bit access (global_load_dwordx4 / ds_read_b128 on gfx9,
 * global_load_b128 / ds_load_b128 on gfx11+; LLVM's load/store vectorizer merges the element
 * loads because the 16-byte alignment is known). 3-element types are three packed elements
 * aligned like one element (sizeof(float3) == 12), so arrays of float3 match host memory.
 * Members are plain struct fields (not ext_vector elements), so `&v.x` is valid.
 */
#ifndef HIPWB_VECTOR_TYPES_H
#define HIPWB_VECTOR_TYPES_H

#include "config.h"

template <typename __T, unsigned __N> struct __hipwb_vec_fields;

template <typename __T> struct alignas(sizeof(__T)) __hipwb_vec_fields<__T, 1> {
  __T x;
  __hipwb_vec_fields() = default;
  constexpr __host__ __device__ __hipwb_vec_fields(__T __a) : x(__a) {}
};
template <typename __T> struct alignas(2 * sizeof(__T)) __hipwb_vec_fields<__T, 2> {
  __T x, y;
  __hipwb_vec_fields() = default;
  constexpr __host__ __device__ __hipwb_vec_fields(__T __a, __T __b) : x(__a), y(__b) {}
  constexpr explicit __host__ __device__ __hipwb_vec_fields(__T __s) : x(__s), y(__s) {}
};
template <typename __T> struct __hipwb_vec_fields<__T, 3> {
  __T x, y, z;
  __hipwb_vec_fields() = default;
  constexpr __host__ __device__ __hipwb_vec_fields(__T __a, __T __b, __T __c) : x(__a), y(__b), z(__c) {}
  constexpr explicit __host__ __device__ __hipwb_vec_fields(__T __s) : x(__s), y(__s), z(__s) {}
};
template <typename __T> struct alignas(4 * sizeof(__T)) __hipwb_vec_fields<__T, 4> {
  __T x, y, z, w;
  __hipwb_vec_fields() = default;
  constexpr __host__ __device__ __hipwb_vec_fields(__T __a, __T __b, __T __c, __T __d)
      : x(__a), y(__b), z(__c), w(__d) {}
  constexpr explicit __host__ __device__ __hipwb_vec_fields(__T __s)
      : x(__s), y(__s), z(__s), w(__s) {}
};

template <typename __T, unsigned __N> struct __hipwb_vec : __hipwb_vec_fields<__T, __N> {
  typedef __T value_type;
  static constexpr unsigned size = __N;
  using __hipwb_vec_fields<__T, __N>::__hipwb_vec_fields;
  __hipwb_vec() = default;
  /* Element i (0 = x, 1 = y, 2 = z, 3 = w): the fields are consecutive without padding. */
  __host__ __device__ __attribute__((__always_inline__)) __T &operator[](unsigned __i) { return (&this->x)[__i]; }
  __host__ __device__ __attribute__((__always_inline__)) const __T &operator[](unsigned __i) const {
    return (&this->x)[__i];
  }
};

/* ---- element-wise operators (vector op vector, vector op scalar, scalar op vector) ---- */
#define __HIPWB_VEC_BINARY(OP, OPEQ)                                                            \
  template <typename __T, unsigned __N>                                                             \
  __host__ __device__ __attribute__((__always_inline__)) inline __hipwb_vec<__T, __N> &operator OPEQ(               \
      __hipwb_vec<__T, __N> &__a, const __hipwb_vec<__T, __N> &__b) {                                       \
    _Pragma("unroll") for (unsigned __i = 0; __i < __N; ++__i) __a[__i] = __a[__i] OP __b[__i];                     \
    return __a;                                                                                   \
  }                                                                                             \
  template <typename __T, unsigned __N>                                                             \
  __host__ __device__ __attribute__((__always_inline__)) inline __hipwb_vec<__T, __N> &operator OPEQ(               \
      __hipwb_vec<__T, __N> &__a, typename __hipwb_vec<__T, __N>::value_type __s) {                         \
    _Pragma("unroll") for (unsigned __i = 0; __i < __N; ++__i) __a[__i] = __a[__i] OP __s;                        \
    return __a;                                                                                   \
  }                                                                                             \
  template <typename __T, unsigned __N>                                                             \
  __host__ __device__ __attribute__((__always_inline__)) inline __hipwb_vec<__T, __N> operator OP(                  \
      __hipwb_vec<__T, __N> __a, const __hipwb_vec<__T, __N> &__b) {                                        \
    return __a OPEQ __b;                                                                            \
  }                                                                                             \
  template <typename __T, unsigned __N>                                                             \
  __host__ __device__ __attribute__((__always_inline__)) inline __hipwb_vec<__T, __N> operator OP(                  \
      __hipwb_vec<__T, __N> __a, typename __hipwb_vec<__T, __N>::value_type __s) {                          \
    return __a OPEQ __s;                                                                            \
  }                                                                                             \
  template <typename __T, unsigned __N>                                                             \
  __host__ __device__ __attribute__((__always_inline__)) inline __hipwb_vec<__T, __N> operator OP(                  \
      typename __hipwb_vec<__T, __N>::value_type __s, const __hipwb_vec<__T, __N> &__b) {                   \
    __hipwb_vec<__T, __N> __r;                                                                        \
    _Pragma("unroll") for (unsigned __i = 0; __i < __N; ++__i) __r[__i] = __s OP __b[__i];                        \
    return __r;                                                                                   \
  }

__HIPWB_VEC_BINARY(+, +=)
__HIPWB_VEC_BINARY(-, -=)
__HIPWB_VEC_BINARY(*, *=)
__HIPWB_VEC_BINARY(/, /=)
/* Integer-only operators: instantiating them for float vectors fails to compile, as in HIP. */
__HIPWB_VEC_BINARY(%, %=)
__HIPWB_VEC_BINARY(&, &=)
__HIPWB_VEC_BINARY(|, |=)
__HIPWB_VEC_BINARY(^, ^=)
__HIPWB_VEC_BINARY(<<, <<=)
__HIPWB_VEC_BINARY(>>, >>=)
#undef __HIPWB_VEC_BINARY

template <typename __T, unsigned __N>
__host__ __device__ __attribute__((__always_inline__)) inline __hipwb_vec<__T, __N> operator-(__hipwb_vec<__T, __N> __a) {
#pragma unroll
  for (unsigned __i = 0; __i < __N; ++__i) __a[__i] = -__a[__i];
  return __a;
}
template <typename __T, unsigned __N>
__host__ __device__ __attribute__((__always_inline__)) inline __hipwb_vec<__T, __N> operator+(__hipwb_vec<__T, __N> __a) {
  return __a;
}
template <typename __T, unsigned __N>
__host__ __device__ __attribute__((__always_inline__)) inline __hipwb_vec<__T, __N> operator~(__hipwb_vec<__T, __N> __a) {
#pragma unroll
  for (unsigned __i = 0; __i < __N; ++__i) __a[__i] = ~__a[__i];
  return __a;
}
/* == / != compare all elements and give one bool. */
template <typename __T, unsigned __N>
__host__ __device__ __attribute__((__always_inline__)) inline bool operator==(const __hipwb_vec<__T, __N> &__a,
                                                              const __hipwb_vec<__T, __N> &__b) {
  bool __eq = true;
#pragma unroll
  for (unsigned __i = 0; __i < __N; ++__i) __eq = __eq && __a[__i] == __b[__i];
  return __eq;
}
template <typename __T, unsigned __N>
__host__ __device__ __attribute__((__always_inline__)) inline bool operator!=(const __hipwb_vec<__T, __N> &__a,
                                                              const __hipwb_vec<__T, __N> &__b) {
  return !(__a == __b);
}

/* ---- the named types and make_* constructors ---- */
#define __HIPWB_VEC_TYPES(NAME, __T)                                                            \
  typedef __hipwb_vec<__T, 1> NAME##1;                                                          \
  typedef __hipwb_vec<__T, 2> NAME##2;                                                          \
  typedef __hipwb_vec<__T, 3> NAME##3;                                                          \
  typedef __hipwb_vec<__T, 4> NAME##4;                                                          \
  static constexpr __host__ __device__ inline NAME##1 make_##NAME##1(__T x) {         \
    return NAME##1(x);                                                                        \
  }                                                                                           \
  static constexpr __host__ __device__ inline NAME##2 make_##NAME##2(__T x, __T y) {    \
    return NAME##2(x, y);                                                                     \
  }                                                                                           \
  static constexpr __host__ __device__ inline NAME##3 make_##NAME##3(__T x, __T y,      \
                                                                               __T z) {         \
    return NAME##3(x, y, z);                                                                  \
  }                                                                                           \
  static constexpr __host__ __device__ inline NAME##4 make_##NAME##4(__T x, __T y, __T z, \
                                                                               __T w) {         \
    return NAME##4(x, y, z, w);                                                               \
  }

__HIPWB_VEC_TYPES(char, signed char)
__HIPWB_VEC_TYPES(uchar, unsigned char)
__HIPWB_VEC_TYPES(short, short)
__HIPWB_VEC_TYPES(ushort, unsigned short)
__HIPWB_VEC_TYPES(int, int)
__HIPWB_VEC_TYPES(uint, unsigned int)
__HIPWB_VEC_TYPES(long, long)
__HIPWB_VEC_TYPES(ulong, unsigned long)
__HIPWB_VEC_TYPES(longlong, long long)
__HIPWB_VEC_TYPES(ulonglong, unsigned long long)
__HIPWB_VEC_TYPES(float, float)
__HIPWB_VEC_TYPES(double, double)
#undef __HIPWB_VEC_TYPES

/* ROCm's name for the class template behind the vector types (amd_hip_vector_types.h:
 * `typedef HIP_vector_type<float, 4> float4`): code that spells HIP_vector_type<float, 4> gets
 * the same type as float4. An alias here, so the types keep the prelude's layout above. */
template <typename __T, unsigned int __N> using HIP_vector_type = __hipwb_vec<__T, __N>;

static_assert(sizeof(float4) == 16 && alignof(float4) == 16, "float4 must be 16-byte aligned");
static_assert(sizeof(float3) == 12 && alignof(float3) == 4, "float3 is three packed floats");
static_assert(sizeof(double2) == 16 && alignof(double2) == 16, "double2 is 16-byte aligned");

#endif /* HIPWB_VECTOR_TYPES_H */
