/* hipwb/atomics.h — CUDA/HIP atomic functions on global and __shared__ memory.
 *
 * All are relaxed read-modify-write operations (CUDA atomics order nothing but themselves) that
 * return the old value, built on clang's __hip_atomic_* builtins with an explicit memory scope,
 * as HIP's headers do:
 *   atomicX(p, v)          agent (device) scope      __HIP_MEMORY_SCOPE_AGENT
 *   atomicX_system(p, v)   system scope              __HIP_MEMORY_SCOPE_SYSTEM
 *   atomicX_block(p, v)    work-group scope          __HIP_MEMORY_SCOPE_WORKGROUP
 * The pointer is a generic (flat) pointer: after inlining LLVM infers the address space, so an
 * atomic on a __shared__ array becomes a ds_* atomic and one on global memory a global_atomic_*
 * (or a flat_atomic_* when the space cannot be proven). Where a target has no instruction for
 * an operation (e.g. float min/max or f32 add on some targets) the backend expands it to a
 * compare-and-swap loop, never to a library call.
 *
 * Provided (old value returned):
 *   atomicAdd, atomicSub, atomicExch     int, unsigned, unsigned long, unsigned long long,
 *                                        long long, float, double
 *   atomicMin, atomicMax                 the same types
 *   atomicAnd, atomicOr, atomicXor       int, unsigned, unsigned long, unsigned long long,
 *                                        long long
 *   atomicCAS(p, compare, v)             int, unsigned, unsigned long, unsigned long long,
 *                                        long long
 *   atomicInc(p, limit), atomicDec(p, limit)   unsigned (CUDA wrap-around semantics:
 *                                        inc: old >= limit ? 0 : old + 1;
 *                                        dec: (old == 0 || old > limit) ? limit : old - 1),
 *                                        via __builtin_amdgcn_atomic_inc32/dec32
 *                                        (the hardware's atomic inc/dec instructions).
 */
#ifndef HIPWB_ATOMICS_H
#define HIPWB_ATOMICS_H

#include "config.h"

#define __HIPWB_ATOMIC_RMW_SCOPED(NAME, BUILTIN, T, SCOPE)                    \
  __HIPWB_FN_INLINE T NAME(T *__address, T __value) {                              \
    return BUILTIN(__address, __value, __ATOMIC_RELAXED, SCOPE);                   \
  }
#define __HIPWB_ATOMIC_RMW(NAME, BUILTIN, T)                                       \
  __HIPWB_ATOMIC_RMW_SCOPED(NAME, BUILTIN, T, __HIP_MEMORY_SCOPE_AGENT)            \
  __HIPWB_ATOMIC_RMW_SCOPED(NAME##_system, BUILTIN, T, __HIP_MEMORY_SCOPE_SYSTEM)  \
  __HIPWB_ATOMIC_RMW_SCOPED(NAME##_block, BUILTIN, T, __HIP_MEMORY_SCOPE_WORKGROUP)

#define __HIPWB_ATOMIC_CAS_SCOPED(NAME, T, SCOPE)                                       \
  __HIPWB_FN_INLINE T NAME(T *__address, T __compare, T __value) {                            \
    __hip_atomic_compare_exchange_strong(__address, &__compare, __value, __ATOMIC_RELAXED,    \
                                         __ATOMIC_RELAXED, SCOPE);                      \
    return __compare; /* holds the old value whether or not the exchange happened */      \
  }
#define __HIPWB_ATOMIC_CAS(T)                                                  \
  __HIPWB_ATOMIC_CAS_SCOPED(atomicCAS, T, __HIP_MEMORY_SCOPE_AGENT)            \
  __HIPWB_ATOMIC_CAS_SCOPED(atomicCAS_system, T, __HIP_MEMORY_SCOPE_SYSTEM)    \
  __HIPWB_ATOMIC_CAS_SCOPED(atomicCAS_block, T, __HIP_MEMORY_SCOPE_WORKGROUP)

#define __HIPWB_ATOMIC_ARITH(T)                              \
  __HIPWB_ATOMIC_RMW(atomicAdd, __hip_atomic_fetch_add, T)   \
  __HIPWB_ATOMIC_RMW(atomicSub, __hip_atomic_fetch_sub, T)   \
  __HIPWB_ATOMIC_RMW(atomicExch, __hip_atomic_exchange, T)   \
  __HIPWB_ATOMIC_RMW(atomicMin, __hip_atomic_fetch_min, T)   \
  __HIPWB_ATOMIC_RMW(atomicMax, __hip_atomic_fetch_max, T)

#define __HIPWB_ATOMIC_BITWISE(T)                            \
  __HIPWB_ATOMIC_RMW(atomicAnd, __hip_atomic_fetch_and, T)   \
  __HIPWB_ATOMIC_RMW(atomicOr, __hip_atomic_fetch_or, T)     \
  __HIPWB_ATOMIC_RMW(atomicXor, __hip_atomic_fetch_xor, T)   \
  __HIPWB_ATOMIC_CAS(T)

__HIPWB_ATOMIC_ARITH(int)
__HIPWB_ATOMIC_ARITH(unsigned int)
__HIPWB_ATOMIC_ARITH(unsigned long)
__HIPWB_ATOMIC_ARITH(unsigned long long)
__HIPWB_ATOMIC_ARITH(long long)
__HIPWB_ATOMIC_ARITH(float)
__HIPWB_ATOMIC_ARITH(double)
__HIPWB_ATOMIC_BITWISE(int)
__HIPWB_ATOMIC_BITWISE(unsigned int)
__HIPWB_ATOMIC_BITWISE(unsigned long)
__HIPWB_ATOMIC_BITWISE(unsigned long long)
__HIPWB_ATOMIC_BITWISE(long long)

#define __HIPWB_ATOMIC_INCDEC_SCOPED(NAME, BUILTIN, SCOPE)                     \
  __HIPWB_FN_INLINE unsigned int NAME(unsigned int *__address, unsigned int __limit) { \
    return BUILTIN(__address, __limit, __ATOMIC_RELAXED, SCOPE);                   \
  }
__HIPWB_ATOMIC_INCDEC_SCOPED(atomicInc, __builtin_amdgcn_atomic_inc32, "agent")
__HIPWB_ATOMIC_INCDEC_SCOPED(atomicInc_system, __builtin_amdgcn_atomic_inc32, "")
__HIPWB_ATOMIC_INCDEC_SCOPED(atomicInc_block, __builtin_amdgcn_atomic_inc32, "workgroup")
__HIPWB_ATOMIC_INCDEC_SCOPED(atomicDec, __builtin_amdgcn_atomic_dec32, "agent")
__HIPWB_ATOMIC_INCDEC_SCOPED(atomicDec_system, __builtin_amdgcn_atomic_dec32, "")
__HIPWB_ATOMIC_INCDEC_SCOPED(atomicDec_block, __builtin_amdgcn_atomic_dec32, "workgroup")

/* HIP's other names for float/double atomic adds (unsafeAtomicAdd, safeAtomicAdd,
 * atomicAddNoRet): here all are the relaxed agent-scope fetch_add of atomicAdd, which leaves the
 * choice of instruction to the compiler; atomicAddNoRet discards the old value. */
#define __HIPWB_ATOMIC_ADD_VARIANTS(T)                                                      \
  __HIPWB_ATOMIC_RMW_SCOPED(unsafeAtomicAdd, __hip_atomic_fetch_add, T,                     \
                            __HIP_MEMORY_SCOPE_AGENT)                                       \
  __HIPWB_ATOMIC_RMW_SCOPED(safeAtomicAdd, __hip_atomic_fetch_add, T,                       \
                            __HIP_MEMORY_SCOPE_AGENT)                                       \
  __HIPWB_FN_INLINE void atomicAddNoRet(T *__address, T __value) {                              \
    (void)__hip_atomic_fetch_add(__address, __value, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT); \
  }
__HIPWB_ATOMIC_ADD_VARIANTS(float)
__HIPWB_ATOMIC_ADD_VARIANTS(double)
#undef __HIPWB_ATOMIC_ADD_VARIANTS

#undef __HIPWB_ATOMIC_RMW_SCOPED
#undef __HIPWB_ATOMIC_RMW
#undef __HIPWB_ATOMIC_CAS_SCOPED
#undef __HIPWB_ATOMIC_CAS
#undef __HIPWB_ATOMIC_ARITH
#undef __HIPWB_ATOMIC_BITWISE
#undef __HIPWB_ATOMIC_INCDEC_SCOPED

#endif /* HIPWB_ATOMICS_H */
