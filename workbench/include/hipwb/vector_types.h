/* hipwb/vector_types.h — HIP's short vector types (float4, int2, uchar4, double2, ...).
 *
 * TYPE{1,2,3,4} for TYPE in char, uchar, short, ushort, int, uint, long, ulong, longlong,
 * ulonglong, float, double, with make_TYPEN(...) constructors, element-wise arithmetic with
 * vectors and scalars, compound assignment, ++/--, and bitwise/shift/modulo operators for the
 * integer types.
 *
 * The types follow the three levels of ROCm's amd_hip_vector_types.h (described in its HIP
 * programming guide, "Vector types"), because libraries built on HIP extend them level by level
 * (rocWMMA specializes HIP_vector_base<T, N> for N = 8..256 and defines members of
 * HIP_vector_type<T, N> out of class):
 *   1. Native_vec_: the storage, clang's ext_vector_type(N) for N = 1, 2, 4 and three packed
 *      elements for N = 3 (sizeof(float3) == 12, so arrays of float3 match host memory);
 *   2. HIP_vector_base<T, N>: a union of `data` (a Native_vec_) with the members .x/.y/.z/.w;
 *   3. HIP_vector_type<T, N>: derives from HIP_vector_base<T, N> and adds the constructors and
 *      operators; float4 is `typedef HIP_vector_type<float, 4> float4`.
 *
 * Layout: 1-, 2- and 4-element types are aligned to their full size (float2: 8 bytes, float4 and
 * double2: 16, double4: 32), so an aligned copy of a float4 is one 128-bit access
 * (global_load_dwordx4 / ds_read_b128 on gfx9, global_load_b128 / ds_load_b128 on gfx11+). The
 * operators work element by element through the storage, so they apply to any HIP_vector_base a
 * library specializes, whatever its storage.
 * Beyond ROCm (a superset): v[i] indexes element i.
 */
#ifndef HIPWB_VECTOR_TYPES_H
#define HIPWB_VECTOR_TYPES_H

#include "config.h"

template <bool, typename _Tp = void> struct __hipwb_enable_if {};
template <typename _Tp> struct __hipwb_enable_if<true, _Tp> { typedef _Tp type; };

/* true when every _Up converts to _Tp */
template <typename _Tp, typename... _Up> struct __hipwb_all_convertible {
  static constexpr bool value = true;
};
template <typename _Tp, typename _U0, typename... _Up> struct __hipwb_all_convertible<_Tp, _U0, _Up...> {
  static constexpr bool value = __is_convertible_to(_U0, _Tp) &&
                                __hipwb_all_convertible<_Tp, _Up...>::value;
};

/* ---- level 1: storage of three packed elements (the other sizes use ext_vector_type) ---- */
template <typename _Tp> struct __hipwb_vec3_storage {
  _Tp __d[3];
  __host__ __device__ __attribute__((__always_inline__)) _Tp &operator[](unsigned __i) { return __d[__i]; }
  __host__ __device__ __attribute__((__always_inline__)) const _Tp &operator[](unsigned __i) const {
    return __d[__i];
  }
};

/* ---- level 2: HIP_vector_base<T, N>, `data` in a union with the named members ---- */
template <typename _Tp, unsigned int __N> struct HIP_vector_base;

template <typename _Tp> struct HIP_vector_base<_Tp, 1> {
  typedef _Tp Native_vec_ __attribute__((__ext_vector_type__(1)));
  union {
    Native_vec_ data;
    struct { _Tp x; };
  };
  typedef _Tp value_type;
  HIP_vector_base() = default;
  constexpr __host__ __device__ HIP_vector_base(_Tp __a) noexcept : data{__a} {}
};
template <typename _Tp> struct HIP_vector_base<_Tp, 2> {
  typedef _Tp Native_vec_ __attribute__((__ext_vector_type__(2)));
  union {
    Native_vec_ data;
    struct { _Tp x, y; };
  };
  typedef _Tp value_type;
  HIP_vector_base() = default;
  constexpr explicit __host__ __device__ HIP_vector_base(_Tp __s) noexcept : data{__s, __s} {}
  constexpr __host__ __device__ HIP_vector_base(_Tp __a, _Tp __b) noexcept : data{__a, __b} {}
};
template <typename _Tp> struct HIP_vector_base<_Tp, 3> {
  typedef __hipwb_vec3_storage<_Tp> Native_vec_;
  union {
    Native_vec_ data;
    struct { _Tp x, y, z; };
  };
  typedef _Tp value_type;
  HIP_vector_base() = default;
  constexpr explicit __host__ __device__ HIP_vector_base(_Tp __s) noexcept : data{{__s, __s, __s}} {}
  constexpr __host__ __device__ HIP_vector_base(_Tp __a, _Tp __b, _Tp __c) noexcept
      : data{{__a, __b, __c}} {}
};
template <typename _Tp> struct HIP_vector_base<_Tp, 4> {
  typedef _Tp Native_vec_ __attribute__((__ext_vector_type__(4)));
  union {
    Native_vec_ data;
    struct { _Tp x, y, z, w; };
  };
  typedef _Tp value_type;
  HIP_vector_base() = default;
  constexpr explicit __host__ __device__ HIP_vector_base(_Tp __s) noexcept : data{__s, __s, __s, __s} {}
  constexpr __host__ __device__ HIP_vector_base(_Tp __a, _Tp __b, _Tp __c, _Tp __d) noexcept
      : data{__a, __b, __c, __d} {}
};

/* ---- level 3: HIP_vector_type<T, N>, constructors and member operators ---- */
#define __HIPWB_VEC_AI __host__ __device__ inline __attribute__((__always_inline__))
#define __HIPWB_VEC_EACH(STMT) _Pragma("unroll") for (unsigned __i = 0; __i < __N; ++__i) STMT

template <typename _Tp, unsigned int __N> struct HIP_vector_type : public HIP_vector_base<_Tp, __N> {
  typedef HIP_vector_base<_Tp, __N> __base;
  using __base::data;
  using typename __base::Native_vec_;
  typedef _Tp value_type;
  static constexpr unsigned size = __N;

  HIP_vector_type() = default;
  /* one element, or a broadcast (explicit for N > 1, as in HIP) */
  template <typename _Up, unsigned int __M = __N,
            typename __hipwb_enable_if<__M == 1 && __is_convertible_to(_Up, _Tp)>::type * = nullptr>
  constexpr __host__ __device__ HIP_vector_type(_Up __s) noexcept : __base(static_cast<_Tp>(__s)) {}
  template <typename _Up, unsigned int __M = __N,
            typename __hipwb_enable_if<(__M > 1) && __is_convertible_to(_Up, _Tp)>::type * = nullptr>
  constexpr explicit __host__ __device__ HIP_vector_type(_Up __s) noexcept
      : __base(static_cast<_Tp>(__s)) {}
  /* one value per element */
  template <typename... _Up,
            typename __hipwb_enable_if<(sizeof...(_Up) == __N) && (__N > 1) &&
                                       __hipwb_all_convertible<_Tp, _Up...>::value>::type * = nullptr>
  constexpr __host__ __device__ HIP_vector_type(_Up... __xs) noexcept
      : __base(static_cast<_Tp>(__xs)...) {}
  __host__ __device__ HIP_vector_type(const Native_vec_ &__v) noexcept { data = __v; }

  /* element i (0 = x, 1 = y, ...), whatever the storage of the base */
  __HIPWB_VEC_AI _Tp &operator[](unsigned __i) noexcept {
    return reinterpret_cast<_Tp *>(&this->data)[__i];
  }
  __HIPWB_VEC_AI const _Tp &operator[](unsigned __i) const noexcept {
    return reinterpret_cast<const _Tp *>(&this->data)[__i];
  }

  __HIPWB_VEC_AI HIP_vector_type &operator++() noexcept { return *this += HIP_vector_type(_Tp(1)); }
  __HIPWB_VEC_AI HIP_vector_type operator++(int) noexcept {
    HIP_vector_type __t(*this);
    ++*this;
    return __t;
  }
  __HIPWB_VEC_AI HIP_vector_type &operator--() noexcept { return *this -= HIP_vector_type(_Tp(1)); }
  __HIPWB_VEC_AI HIP_vector_type operator--(int) noexcept {
    HIP_vector_type __t(*this);
    --*this;
    return __t;
  }

#define __HIPWB_VEC_COMPOUND(OPEQ)                                                              \
  __HIPWB_VEC_AI HIP_vector_type &operator OPEQ(const HIP_vector_type &__b) noexcept {         \
    __HIPWB_VEC_EACH((*this)[__i] OPEQ __b[__i]);                                               \
    return *this;                                                                               \
  }                                                                                             \
  template <typename _Up,                                                                       \
            typename __hipwb_enable_if<__is_convertible_to(_Up, _Tp)>::type * = nullptr>        \
  __HIPWB_VEC_AI HIP_vector_type &operator OPEQ(_Up __s) noexcept {                            \
    const _Tp __v = static_cast<_Tp>(__s);                                                      \
    __HIPWB_VEC_EACH((*this)[__i] OPEQ __v);                                                    \
    return *this;                                                                               \
  }
  __HIPWB_VEC_COMPOUND(+=)
  __HIPWB_VEC_COMPOUND(-=)
  __HIPWB_VEC_COMPOUND(*=)
  __HIPWB_VEC_COMPOUND(/=)
  /* integer-only: instantiating them for floating-point vectors fails to compile, as in HIP */
  __HIPWB_VEC_COMPOUND(%=)
  __HIPWB_VEC_COMPOUND(&=)
  __HIPWB_VEC_COMPOUND(|=)
  __HIPWB_VEC_COMPOUND(^=)
  __HIPWB_VEC_COMPOUND(<<=)
  __HIPWB_VEC_COMPOUND(>>=)
#undef __HIPWB_VEC_COMPOUND

  __HIPWB_VEC_AI HIP_vector_type operator-() const noexcept {
    HIP_vector_type __r(*this);
    __HIPWB_VEC_EACH(__r[__i] = -__r[__i]);
    return __r;
  }
  __HIPWB_VEC_AI HIP_vector_type operator+() const noexcept { return *this; }
  __HIPWB_VEC_AI HIP_vector_type operator~() const noexcept {
    HIP_vector_type __r(*this);
    __HIPWB_VEC_EACH(__r[__i] = ~__r[__i]);
    return __r;
  }
};

/* ---- element-wise binary operators (vector op vector, vector op scalar, scalar op vector) ---- */
#define __HIPWB_VEC_BINARY(OP, OPEQ)                                                            \
  template <typename _Tp, unsigned int __N>                                                     \
  __HIPWB_VEC_AI HIP_vector_type<_Tp, __N> operator OP(HIP_vector_type<_Tp, __N> __a,           \
                                                       const HIP_vector_type<_Tp, __N> &__b) {  \
    return __a OPEQ __b;                                                                        \
  }                                                                                             \
  template <typename _Tp, unsigned int __N>                                                     \
  __HIPWB_VEC_AI HIP_vector_type<_Tp, __N> operator OP(                                         \
      HIP_vector_type<_Tp, __N> __a, typename HIP_vector_type<_Tp, __N>::value_type __s) {     \
    return __a OPEQ __s;                                                                        \
  }                                                                                             \
  template <typename _Tp, unsigned int __N>                                                     \
  __HIPWB_VEC_AI HIP_vector_type<_Tp, __N> operator OP(                                         \
      typename HIP_vector_type<_Tp, __N>::value_type __s, const HIP_vector_type<_Tp, __N> &__b) { \
    HIP_vector_type<_Tp, __N> __r;                                                              \
    __HIPWB_VEC_EACH(__r[__i] = __s OP __b[__i]);                                               \
    return __r;                                                                                 \
  }
__HIPWB_VEC_BINARY(+, +=)
__HIPWB_VEC_BINARY(-, -=)
__HIPWB_VEC_BINARY(*, *=)
__HIPWB_VEC_BINARY(/, /=)
__HIPWB_VEC_BINARY(%, %=)
__HIPWB_VEC_BINARY(&, &=)
__HIPWB_VEC_BINARY(|, |=)
__HIPWB_VEC_BINARY(^, ^=)
__HIPWB_VEC_BINARY(<<, <<=)
__HIPWB_VEC_BINARY(>>, >>=)
#undef __HIPWB_VEC_BINARY

/* == / != compare all elements and give one bool, as in HIP. */
template <typename _Tp, unsigned int __N>
__HIPWB_VEC_AI bool operator==(const HIP_vector_type<_Tp, __N> &__a, const HIP_vector_type<_Tp, __N> &__b) {
  bool __eq = true;
  __HIPWB_VEC_EACH(__eq = __eq && __a[__i] == __b[__i]);
  return __eq;
}
template <typename _Tp, unsigned int __N>
__HIPWB_VEC_AI bool operator!=(const HIP_vector_type<_Tp, __N> &__a, const HIP_vector_type<_Tp, __N> &__b) {
  return !(__a == __b);
}
#undef __HIPWB_VEC_EACH
#undef __HIPWB_VEC_AI

/* ---- the named types and make_* constructors ---- */
#define __HIPWB_VEC_TYPES(NAME, _Tp)                                                            \
  typedef HIP_vector_type<_Tp, 1> NAME##1;                                                      \
  typedef HIP_vector_type<_Tp, 2> NAME##2;                                                      \
  typedef HIP_vector_type<_Tp, 3> NAME##3;                                                      \
  typedef HIP_vector_type<_Tp, 4> NAME##4;                                                      \
  static constexpr __host__ __device__ inline NAME##1 make_##NAME##1(_Tp __x) { return NAME##1(__x); } \
  static constexpr __host__ __device__ inline NAME##2 make_##NAME##2(_Tp __x, _Tp __y) {         \
    return NAME##2(__x, __y);                                                                   \
  }                                                                                             \
  static constexpr __host__ __device__ inline NAME##3 make_##NAME##3(_Tp __x, _Tp __y, _Tp __z) { \
    return NAME##3(__x, __y, __z);                                                              \
  }                                                                                             \
  static constexpr __host__ __device__ inline NAME##4 make_##NAME##4(_Tp __x, _Tp __y, _Tp __z,  \
                                                                     _Tp __w) {                 \
    return NAME##4(__x, __y, __z, __w);                                                         \
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
