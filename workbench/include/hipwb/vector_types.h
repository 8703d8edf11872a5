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

template <typename T, unsigned N> struct __hipwb_vec_fields;

template <typename T> struct alignas(sizeof(T)) __hipwb_vec_fields<T, 1> {
  T x;
  __hipwb_vec_fields() = default;
  constexpr __attribute__((host, device)) __hipwb_vec_fields(T a) : x(a) {}
};
template <typename T> struct alignas(2 * sizeof(T)) __hipwb_vec_fields<T, 2> {
  T x, y;
  __hipwb_vec_fields() = default;
  constexpr __attribute__((host, device)) __hipwb_vec_fields(T a, T b) : x(a), y(b) {}
  constexpr explicit __attribute__((host, device)) __hipwb_vec_fields(T s) : x(s), y(s) {}
};
template <typename T> struct __hipwb_vec_fields<T, 3> {
  T x, y, z;
  __hipwb_vec_fields() = default;
  constexpr __attribute__((host, device)) __hipwb_vec_fields(T a, T b, T c) : x(a), y(b), z(c) {}
  constexpr explicit __attribute__((host, device)) __hipwb_vec_fields(T s) : x(s), y(s), z(s) {}
};
template <typename T> struct alignas(4 * sizeof(T)) __hipwb_vec_fields<T, 4> {
  T x, y, z, w;
  __hipwb_vec_fields() = default;
  constexpr __attribute__((host, device)) __hipwb_vec_fields(T a, T b, T c, T d)
      : x(a), y(b), z(c), w(d) {}
  constexpr explicit __attribute__((host, device)) __hipwb_vec_fields(T s)
      : x(s), y(s), z(s), w(s) {}
};

template <typename T, unsigned N> struct __hipwb_vec : __hipwb_vec_fields<T, N> {
  typedef T value_type;
  static constexpr unsigned size = N;
  using __hipwb_vec_fields<T, N>::__hipwb_vec_fields;
  __hipwb_vec() = default;
  /* Element i (0 = x, 1 = y, 2 = z, 3 = w): the fields are consecutive without padding. */
  __attribute__((host, device, always_inline)) T &operator[](unsigned i) { return (&this->x)[i]; }
  __attribute__((host, device, always_inline)) const T &operator[](unsigned i) const {
    return (&this->x)[i];
  }
};

/* ---- element-wise operators (vector op vector, vector op scalar, scalar op vector) ---- */
#define __HIPWB_VEC_BINARY(OP, OPEQ)                                                            \
  template <typename T, unsigned N>                                                             \
  __attribute__((device, always_inline)) inline __hipwb_vec<T, N> &operator OPEQ(               \
      __hipwb_vec<T, N> &a, const __hipwb_vec<T, N> &b) {                                       \
    _Pragma("unroll") for (unsigned i = 0; i < N; ++i) a[i] = a[i] OP b[i];                     \
    return a;                                                                                   \
  }                                                                                             \
  template <typename T, unsigned N>                                                             \
  __attribute__((device, always_inline)) inline __hipwb_vec<T, N> &operator OPEQ(               \
      __hipwb_vec<T, N> &a, typename __hipwb_vec<T, N>::value_type s) {                         \
    _Pragma("unroll") for (unsigned i = 0; i < N; ++i) a[i] = a[i] OP s;                        \
    return a;                                                                                   \
  }                                                                                             \
  template <typename T, unsigned N>                                                             \
  __attribute__((device, always_inline)) inline __hipwb_vec<T, N> operator OP(                  \
      __hipwb_vec<T, N> a, const __hipwb_vec<T, N> &b) {                                        \
    return a OPEQ b;                                                                            \
  }                                                                                             \
  template <typename T, unsigned N>                                                             \
  __attribute__((device, always_inline)) inline __hipwb_vec<T, N> operator OP(                  \
      __hipwb_vec<T, N> a, typename __hipwb_vec<T, N>::value_type s) {                          \
    return a OPEQ s;                                                                            \
  }                                                                                             \
  template <typename T, unsigned N>                                                             \
  __attribute__((device, always_inline)) inline __hipwb_vec<T, N> operator OP(                  \
      typename __hipwb_vec<T, N>::value_type s, const __hipwb_vec<T, N> &b) {                   \
    __hipwb_vec<T, N> r;                                                                        \
    _Pragma("unroll") for (unsigned i = 0; i < N; ++i) r[i] = s OP b[i];                        \
    return r;                                                                                   \
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

template <typename T, unsigned N>
__attribute__((device, always_inline)) inline __hipwb_vec<T, N> operator-(__hipwb_vec<T, N> a) {
#pragma unroll
  for (unsigned i = 0; i < N; ++i) a[i] = -a[i];
  return a;
}
template <typename T, unsigned N>
__attribute__((device, always_inline)) inline __hipwb_vec<T, N> operator+(__hipwb_vec<T, N> a) {
  return a;
}
template <typename T, unsigned N>
__attribute__((device, always_inline)) inline __hipwb_vec<T, N> operator~(__hipwb_vec<T, N> a) {
#pragma unroll
  for (unsigned i = 0; i < N; ++i) a[i] = ~a[i];
  return a;
}
/* == / != compare all elements and give one bool. */
template <typename T, unsigned N>
__attribute__((device, always_inline)) inline bool operator==(const __hipwb_vec<T, N> &a,
                                                              const __hipwb_vec<T, N> &b) {
  bool eq = true;
#pragma unroll
  for (unsigned i = 0; i < N; ++i) eq = eq && a[i] == b[i];
  return eq;
}
template <typename T, unsigned N>
__attribute__((device, always_inline)) inline bool operator!=(const __hipwb_vec<T, N> &a,
                                                              const __hipwb_vec<T, N> &b) {
  return !(a == b);
}

/* ---- the named types and make_* constructors ---- */
#define __HIPWB_VEC_TYPES(NAME, T)                                                            \
  typedef __hipwb_vec<T, 1> NAME##1;                                                          \
  typedef __hipwb_vec<T, 2> NAME##2;                                                          \
  typedef __hipwb_vec<T, 3> NAME##3;                                                          \
  typedef __hipwb_vec<T, 4> NAME##4;                                                          \
  static constexpr __attribute__((host, device)) inline NAME##1 make_##NAME##1(T x) {         \
    return NAME##1(x);                                                                        \
  }                                                                                           \
  static constexpr __attribute__((host, device)) inline NAME##2 make_##NAME##2(T x, T y) {    \
    return NAME##2(x, y);                                                                     \
  }                                                                                           \
  static constexpr __attribute__((host, device)) inline NAME##3 make_##NAME##3(T x, T y,      \
                                                                               T z) {         \
    return NAME##3(x, y, z);                                                                  \
  }                                                                                           \
  static constexpr __attribute__((host, device)) inline NAME##4 make_##NAME##4(T x, T y, T z, \
                                                                               T w) {         \
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

static_assert(sizeof(float4) == 16 && alignof(float4) == 16, "float4 must be 16-byte aligned");
static_assert(sizeof(float3) == 12 && alignof(float3) == 4, "float3 is three packed floats");
static_assert(sizeof(double2) == 16 && alignof(double2) == 16, "double2 is 16-byte aligned");

#endif /* HIPWB_VECTOR_TYPES_H */
