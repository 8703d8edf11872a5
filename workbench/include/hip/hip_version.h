/* hip/hip_version.h — HIP_VERSION and its parts, as ROCm's generated header defines them.
 *
 * ROCm's HIP documents (HIP reference, "Version information"; hip/hip_version.h, included by
 * hip_runtime_api.h and so by hip_runtime.h):
 *   HIP_VERSION = HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 + HIP_VERSION_PATCH
 * with HIP_VERSION_GITHASH, HIP_VERSION_BUILD_ID and HIP_VERSION_BUILD_NAME beside it, and
 * hipRuntimeGetVersion() returning the same number. Libraries test it to pick an API path
 * (rocPRIM: `HIP_VERSION_MAJOR > 3` for hipMemcpyWithStream; hipCUB: `HIP_VERSION >= 50400000`
 * for __int128).
 *
 * The value hipwb states (a choice, not a measurement): 7.0 — the ROCm release whose device
 * headers the prelude follows (warpSize not a constant expression, hip_fp4.h / hip_fp6.h,
 * hip_ext_ocp.h). The patch level, which is ROCm's build number, is 0: no ROCm build is
 * installed. __HIPWB_PRELUDE__ (hipwb/config.h) tells the prelude from ROCm's headers.
 */
#ifndef HIPWB_HIP_HIP_VERSION_H
#define HIPWB_HIP_HIP_VERSION_H
#define HIP_VERSION_MAJOR 7
#define HIP_VERSION_MINOR 0
#define HIP_VERSION_PATCH 0
#define HIP_VERSION_GITHASH ""
#define HIP_VERSION_BUILD_ID 0
#define HIP_VERSION_BUILD_NAME ""
#define HIP_VERSION (HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 + HIP_VERSION_PATCH)
#endif /* HIPWB_HIP_HIP_VERSION_H */
