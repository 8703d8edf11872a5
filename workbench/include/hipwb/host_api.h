/* hipwb/host_api.h — declarations of HIP's host runtime API, so whole .hip files parse.
 *
 * A pasted .hip file holds kernels and a host program (main, hipMalloc, hipMemcpy, launches).
 * The workbench compiles device code only (--offload-device-only): clang parses the host code
 * but never generates it, so the host API needs declarations and nothing else. The kernels
 * become callables; main() is not run (the workbench launches the kernels itself). Names,
 * enumerators and signatures follow HIP's runtime API reference (hip_runtime_api.h,
 * driver_types.h, texture_types.h); the struct layouts and the hipDeviceAttribute_t values are
 * not HIP's (no host code is built, so only names matter). Triple-chevron launches parse through __hipPushCallConfiguration,
 * the function clang's Sema looks up for `kernel<<<grid, block, shmem, stream>>>(...)` in HIP.
 *
 * Texture and surface objects: the types and host functions are declared (host code parses);
 * device fetches (tex1Dfetch, tex2D, ...) are declared deleted with a message, because the
 * prelude has no image instructions and the emulator does not execute MIMG.
 */
#ifndef HIPWB_HOST_API_H
#define HIPWB_HOST_API_H

#include "config.h"
#include "coordinates.h"
#include "../hip/hip_version.h"

#define __HIPWB_HOST __host__

typedef enum hipError_t {
  hipSuccess = 0,
  hipErrorInvalidValue = 1,
  hipErrorOutOfMemory = 2,
  hipErrorMemoryAllocation = 2,
  hipErrorNotInitialized = 3,
  hipErrorInitializationError = 3,
  hipErrorDeinitialized = 4,
  hipErrorInvalidConfiguration = 9,
  hipErrorInvalidPitchValue = 12,
  hipErrorInvalidSymbol = 13,
  hipErrorInvalidDevicePointer = 17,
  hipErrorInvalidMemcpyDirection = 21,
  hipErrorInsufficientDriver = 35,
  hipErrorMissingConfiguration = 52,
  hipErrorPriorLaunchFailure = 53,
  hipErrorInvalidDeviceFunction = 98,
  hipErrorNoDevice = 100,
  hipErrorInvalidDevice = 101,
  hipErrorInvalidImage = 200,
  hipErrorInvalidContext = 201,
  hipErrorNoBinaryForGpu = 209,
  hipErrorInvalidKernelFile = 218,
  hipErrorInvalidSource = 300,
  hipErrorFileNotFound = 301,
  hipErrorInvalidHandle = 400,
  hipErrorNotFound = 500,
  hipErrorNotReady = 600,
  hipErrorIllegalAddress = 700,
  hipErrorLaunchOutOfResources = 701,
  hipErrorLaunchTimeOut = 702,
  hipErrorPeerAccessAlreadyEnabled = 704,
  hipErrorPeerAccessNotEnabled = 705,
  hipErrorAssert = 710,
  hipErrorHostMemoryAlreadyRegistered = 712,
  hipErrorLaunchFailure = 719,
  hipErrorCooperativeLaunchTooLarge = 720,
  hipErrorNotSupported = 801,
  hipErrorUnknown = 999,
} hipError_t;

typedef enum hipMemcpyKind {
  hipMemcpyHostToHost = 0,
  hipMemcpyHostToDevice = 1,
  hipMemcpyDeviceToHost = 2,
  hipMemcpyDeviceToDevice = 3,
  hipMemcpyDefault = 4,
} hipMemcpyKind;

typedef struct ihipStream_t *hipStream_t;
typedef struct ihipEvent_t *hipEvent_t;
typedef struct ihipModule_t *hipModule_t;
typedef struct ihipModuleSymbol_t *hipFunction_t;
typedef struct hipArray *hipArray_t;
typedef const struct hipArray *hipArray_const_t;
typedef struct __hip_texture *hipTextureObject_t;
typedef struct __hip_surface *hipSurfaceObject_t;
typedef int hipDevice_t;
/* a device address as the module API passes it (HIP runtime API reference: `typedef void*
 * hipDeviceptr_t`) */
typedef void *hipDeviceptr_t;
typedef void (*hipStreamCallback_t)(hipStream_t, hipError_t, void *);
typedef void (*hipHostFn_t)(void *);

#define hipStreamDefault 0x00
#define hipStreamNonBlocking 0x01
#define hipEventDefault 0x0
#define hipEventBlockingSync 0x1
#define hipEventDisableTiming 0x2
#define hipEventInterprocess 0x4
#define hipHostMallocDefault 0x0
#define hipHostMallocPortable 0x1
#define hipHostMallocMapped 0x2
#define hipHostMallocWriteCombined 0x4
#define hipHostMallocNumaUser 0x20000000
#define hipHostMallocCoherent 0x40000000
#define hipHostMallocNonCoherent 0x80000000
#define hipHostRegisterDefault 0x0
#define hipHostRegisterPortable 0x1
#define hipHostRegisterMapped 0x2
#define hipMemAttachGlobal 0x01
#define hipMemAttachHost 0x02
#define hipDeviceScheduleAuto 0x0
#define hipDeviceScheduleSpin 0x1
#define hipDeviceScheduleYield 0x2
#define hipDeviceScheduleBlockingSync 0x4
#define hipDeviceMapHost 0x8
#define hipStreamPerThread ((hipStream_t)2)
#define hipCpuDeviceId ((int)-1)
#define hipInvalidDeviceId ((int)-2)

typedef struct hipDeviceArch_t {
  unsigned hasGlobalInt32Atomics : 1, hasGlobalFloatAtomicExch : 1, hasSharedInt32Atomics : 1,
      hasSharedFloatAtomicExch : 1, hasFloatAtomicAdd : 1, hasGlobalInt64Atomics : 1,
      hasSharedInt64Atomics : 1, hasDoubles : 1, hasWarpVote : 1, hasWarpBallot : 1,
      hasWarpShuffle : 1, hasFunnelShift : 1, hasThreadFenceSystem : 1, hasSyncThreadsExt : 1,
      hasSurfaceFuncs : 1, has3dGrid : 1, hasDynamicParallelism : 1;
} hipDeviceArch_t;

typedef struct hipUUID_t {
  char bytes[16];
} hipUUID;

typedef struct hipDeviceProp_t {
  char name[256];
  hipUUID uuid;
  size_t totalGlobalMem, sharedMemPerBlock;
  int regsPerBlock, warpSize;
  size_t memPitch;
  int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], clockRate;
  size_t totalConstMem;
  int major, minor;
  size_t textureAlignment, texturePitchAlignment;
  int deviceOverlap, multiProcessorCount, kernelExecTimeoutEnabled, integrated,
      canMapHostMemory, computeMode, maxTexture1D, maxTexture1DLinear, maxTexture2D[2],
      maxTexture3D[3];
  size_t surfaceAlignment;
  int concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, pciDomainID, tccDriver,
      asyncEngineCount, unifiedAddressing, memoryClockRate, memoryBusWidth, l2CacheSize,
      persistingL2CacheMaxSize, maxThreadsPerMultiProcessor, streamPrioritiesSupported,
      globalL1CacheSupported, localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor, managedMemory, isMultiGpuBoard, multiGpuBoardGroupID,
      hostNativeAtomicSupported, singleToDoublePrecisionPerfRatio, pageableMemoryAccess,
      concurrentManagedAccess, computePreemptionSupported,
      canUseHostPointerForRegisteredMem, cooperativeLaunch, cooperativeMultiDeviceLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables, directManagedMemAccessFromHost,
      maxBlocksPerMultiProcessor, accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  char gcnArchName[256];
  size_t maxSharedMemoryPerMultiProcessor;
  int clockInstructionRate;
  hipDeviceArch_t arch;
  unsigned int *hdpMemFlushCntl, *hdpRegFlushCntl;
  int cooperativeMultiDeviceUnmatchedFunc, cooperativeMultiDeviceUnmatchedGridDim,
      cooperativeMultiDeviceUnmatchedBlockDim, cooperativeMultiDeviceUnmatchedSharedMem,
      isLargeBar, asicRevision;
} hipDeviceProp_t;

typedef enum hipDeviceAttribute_t {
  hipDeviceAttributeMaxThreadsPerBlock,
  hipDeviceAttributeMaxBlockDimX,
  hipDeviceAttributeMaxBlockDimY,
  hipDeviceAttributeMaxBlockDimZ,
  hipDeviceAttributeMaxGridDimX,
  hipDeviceAttributeMaxGridDimY,
  hipDeviceAttributeMaxGridDimZ,
  hipDeviceAttributeMaxSharedMemoryPerBlock,
  hipDeviceAttributeTotalConstantMemory,
  hipDeviceAttributeWarpSize,
  hipDeviceAttributeMaxRegistersPerBlock,
  hipDeviceAttributeClockRate,
  hipDeviceAttributeMemoryClockRate,
  hipDeviceAttributeMemoryBusWidth,
  hipDeviceAttributeMultiprocessorCount,
  hipDeviceAttributeComputeCapabilityMajor,
  hipDeviceAttributeComputeCapabilityMinor,
  hipDeviceAttributeL2CacheSize,
  hipDeviceAttributeMaxThreadsPerMultiProcessor,
  hipDeviceAttributeCooperativeLaunch,
  hipDeviceAttributeImageSupport,
  hipDeviceAttributeConcurrentKernels,
  hipDeviceAttributeManagedMemory,
  hipDeviceAttributeUnifiedAddressing,
  hipDeviceAttributeMaxSharedMemoryPerMultiprocessor,
} hipDeviceAttribute_t;

/* LDS bank width requests (driver_types.h); accepted and ignored by ROCm on AMD GPUs */
typedef enum hipSharedMemConfig {
  hipSharedMemBankSizeDefault,
  hipSharedMemBankSizeFourByte,
  hipSharedMemBankSizeEightByte
} hipSharedMemConfig;
typedef enum hipFuncCache_t {
  hipFuncCachePreferNone,
  hipFuncCachePreferShared,
  hipFuncCachePreferL1,
  hipFuncCachePreferEqual
} hipFuncCache_t;
typedef enum hipFuncAttribute {
  hipFuncAttributeMaxDynamicSharedMemorySize = 8,
  hipFuncAttributePreferredSharedMemoryCarveout = 9,
} hipFuncAttribute;
typedef struct hipFuncAttributes {
  int binaryVersion, cacheModeCA;
  size_t constSizeBytes, localSizeBytes;
  int maxDynamicSharedSizeBytes, maxThreadsPerBlock, numRegs, preferredShmemCarveout,
      ptxVersion;
  size_t sharedSizeBytes;
} hipFuncAttributes;
typedef enum hipMemoryAdvise {
  hipMemAdviseSetReadMostly = 1,
  hipMemAdviseUnsetReadMostly = 2,
  hipMemAdviseSetPreferredLocation = 3,
  hipMemAdviseUnsetPreferredLocation = 4,
  hipMemAdviseSetAccessedBy = 5,
  hipMemAdviseUnsetAccessedBy = 6,
} hipMemoryAdvise;

/* textures (types for host code; see the header comment for device fetches) */
typedef enum hipChannelFormatKind {
  hipChannelFormatKindSigned = 0,
  hipChannelFormatKindUnsigned = 1,
  hipChannelFormatKindFloat = 2,
  hipChannelFormatKindNone = 3
} hipChannelFormatKind;
typedef struct hipChannelFormatDesc {
  int x, y, z, w;
  hipChannelFormatKind f;
} hipChannelFormatDesc;
typedef enum hipResourceType {
  hipResourceTypeArray = 0,
  hipResourceTypeMipmappedArray = 1,
  hipResourceTypeLinear = 2,
  hipResourceTypePitch2D = 3
} hipResourceType;
typedef enum hipTextureAddressMode {
  hipAddressModeWrap = 0,
  hipAddressModeClamp = 1,
  hipAddressModeMirror = 2,
  hipAddressModeBorder = 3
} hipTextureAddressMode;
typedef enum hipTextureFilterMode {
  hipFilterModePoint = 0,
  hipFilterModeLinear = 1
} hipTextureFilterMode;
typedef enum hipTextureReadMode {
  hipReadModeElementType = 0,
  hipReadModeNormalizedFloat = 1
} hipTextureReadMode;
typedef struct hipResourceDesc {
  hipResourceType resType;
  union {
    struct { hipArray_t array; } array;
    struct { void *devPtr; hipChannelFormatDesc desc; size_t sizeInBytes; } linear;
    struct {
      void *devPtr;
      hipChannelFormatDesc desc;
      size_t width, height, pitchInBytes;
    } pitch2D;
  } res;
} hipResourceDesc;
typedef struct hipTextureDesc {
  hipTextureAddressMode addressMode[3];
  hipTextureFilterMode filterMode;
  hipTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  hipTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
} hipTextureDesc;
typedef struct hipResourceViewDesc hipResourceViewDesc;
typedef struct hipExtent {
  size_t width, height, depth;
} hipExtent;
typedef struct hipPitchedPtr {
  void *ptr;
  size_t pitch, xsize, ysize;
} hipPitchedPtr;

extern "C" {
__HIPWB_HOST hipError_t hipMalloc(void **__ptr, size_t __size);
__HIPWB_HOST hipError_t hipMallocManaged(void **__ptr, size_t __size, unsigned int __flags = 1);
__HIPWB_HOST hipError_t hipMallocPitch(void **__ptr, size_t *__pitch, size_t __width, size_t __height);
__HIPWB_HOST hipError_t hipMalloc3D(hipPitchedPtr *__ptr, hipExtent __extent);
__HIPWB_HOST hipError_t hipHostMalloc(void **__ptr, size_t __size, unsigned int __flags = 0);
__HIPWB_HOST hipError_t hipMallocHost(void **__ptr, size_t __size);
__HIPWB_HOST hipError_t hipHostAlloc(void **__ptr, size_t __size, unsigned int __flags);
__HIPWB_HOST hipError_t hipFree(void *__ptr);
__HIPWB_HOST hipError_t hipHostFree(void *__ptr);
__HIPWB_HOST hipError_t hipFreeHost(void *__ptr);
__HIPWB_HOST hipError_t hipHostRegister(void *__ptr, size_t __size, unsigned int __flags);
__HIPWB_HOST hipError_t hipHostUnregister(void *__ptr);
__HIPWB_HOST hipError_t hipHostGetDevicePointer(void **__dev, void *__host, unsigned int __flags);
__HIPWB_HOST hipError_t hipMemcpy(void *__dst, const void *__src, size_t __n, hipMemcpyKind __kind);
__HIPWB_HOST hipError_t hipMemcpyAsync(void *__dst, const void *__src, size_t __n,
                                       hipMemcpyKind __kind, hipStream_t __stream = 0);
__HIPWB_HOST hipError_t hipMemcpyHtoD(void *__dst, const void *__src, size_t __n);
__HIPWB_HOST hipError_t hipMemcpyDtoH(void *__dst, const void *__src, size_t __n);
__HIPWB_HOST hipError_t hipMemcpy2D(void *__dst, size_t __dpitch, const void *__src, size_t __spitch,
                                    size_t __width, size_t __height, hipMemcpyKind __kind);
__HIPWB_HOST hipError_t hipMemcpy2DAsync(void *__dst, size_t __dpitch, const void *__src,
                                         size_t __spitch, size_t __width, size_t __height,
                                         hipMemcpyKind __kind, hipStream_t __stream = 0);
__HIPWB_HOST hipError_t hipMemcpy2DToArray(hipArray_t __dst, size_t __wOffset, size_t __hOffset,
                                           const void *__src, size_t __spitch, size_t __width,
                                           size_t __height, hipMemcpyKind __kind);
__HIPWB_HOST hipError_t hipMemcpyPeer(void *__dst, int __dstDevice, const void *__src, int __srcDevice,
                                      size_t __n);
__HIPWB_HOST hipError_t hipMemset(void *__dst, int __value, size_t __n);
__HIPWB_HOST hipError_t hipMemsetAsync(void *__dst, int __value, size_t __n, hipStream_t __stream = 0);
__HIPWB_HOST hipError_t hipMemcpyWithStream(void *__dst, const void *__src, size_t __n,
                                            hipMemcpyKind __kind, hipStream_t __stream);
__HIPWB_HOST hipError_t hipMemsetD32(void *__dst, int __value, size_t __count);
__HIPWB_HOST hipError_t hipMemset2D(void *__dst, size_t __pitch, int __value, size_t __width,
                                    size_t __height);
__HIPWB_HOST hipError_t hipMemGetInfo(size_t *__free, size_t *__total);
__HIPWB_HOST hipError_t hipMemPrefetchAsync(const void *__ptr, size_t __n, int __device,
                                            hipStream_t __stream = 0);
__HIPWB_HOST hipError_t hipMemAdvise(const void *__ptr, size_t __n, hipMemoryAdvise __advice,
                                     int __device);
__HIPWB_HOST hipError_t hipMemcpyToSymbol(const void *__symbol, const void *__src, size_t __n,
                                          size_t __offset = 0,
                                          hipMemcpyKind __kind = hipMemcpyHostToDevice);
__HIPWB_HOST hipError_t hipMemcpyFromSymbol(void *__dst, const void *__symbol, size_t __n,
                                            size_t __offset = 0,
                                            hipMemcpyKind __kind = hipMemcpyDeviceToHost);
__HIPWB_HOST hipError_t hipMemcpyToSymbolAsync(const void *__symbol, const void *__src, size_t __n,
                                               size_t __offset, hipMemcpyKind __kind,
                                               hipStream_t __stream = 0);
__HIPWB_HOST hipError_t hipGetSymbolAddress(void **__dev, const void *__symbol);
__HIPWB_HOST hipError_t hipGetSymbolSize(size_t *__size, const void *__symbol);
__HIPWB_HOST hipError_t hipDeviceSynchronize(void);
__HIPWB_HOST hipError_t hipDeviceReset(void);
__HIPWB_HOST hipError_t hipSetDevice(int __device);
__HIPWB_HOST hipError_t hipGetDevice(int *__device);
__HIPWB_HOST hipError_t hipGetDeviceCount(int *__count);
__HIPWB_HOST hipError_t hipSetDeviceFlags(unsigned int __flags);
__HIPWB_HOST hipError_t hipGetDeviceProperties(hipDeviceProp_t *__prop, int __device);
__HIPWB_HOST hipError_t hipDeviceGetAttribute(int *__value, hipDeviceAttribute_t __attr, int __device);
__HIPWB_HOST hipError_t hipDeviceSetCacheConfig(hipFuncCache_t __config);
__HIPWB_HOST hipError_t hipDeviceSetSharedMemConfig(hipSharedMemConfig __config);
__HIPWB_HOST hipError_t hipDeviceGetSharedMemConfig(hipSharedMemConfig *__config);
__HIPWB_HOST hipError_t hipDeviceCanAccessPeer(int *__can, int __device, int __peer);
__HIPWB_HOST hipError_t hipDeviceEnablePeerAccess(int __peer, unsigned int __flags);
__HIPWB_HOST hipError_t hipDeviceDisablePeerAccess(int __peer);
__HIPWB_HOST hipError_t hipDriverGetVersion(int *__version);
__HIPWB_HOST hipError_t hipRuntimeGetVersion(int *__version);
__HIPWB_HOST hipError_t hipGetLastError(void);
__HIPWB_HOST hipError_t hipPeekAtLastError(void);
__HIPWB_HOST const char *hipGetErrorString(hipError_t __error);
__HIPWB_HOST const char *hipGetErrorName(hipError_t __error);
__HIPWB_HOST hipError_t hipStreamCreate(hipStream_t *__stream);
__HIPWB_HOST hipError_t hipStreamCreateWithFlags(hipStream_t *__stream, unsigned int __flags);
__HIPWB_HOST hipError_t hipStreamCreateWithPriority(hipStream_t *__stream, unsigned int __flags,
                                                    int priority);
__HIPWB_HOST hipError_t hipStreamDestroy(hipStream_t __stream);
__HIPWB_HOST hipError_t hipStreamSynchronize(hipStream_t __stream);
__HIPWB_HOST int hipGetStreamDeviceId(hipStream_t __stream);
__HIPWB_HOST hipError_t hipStreamQuery(hipStream_t __stream);
__HIPWB_HOST hipError_t hipStreamWaitEvent(hipStream_t __stream, hipEvent_t __event,
                                           unsigned int __flags = 0);
__HIPWB_HOST hipError_t hipStreamAddCallback(hipStream_t __stream, hipStreamCallback_t __callback,
                                             void *__user, unsigned int __flags);
__HIPWB_HOST hipError_t hipLaunchHostFunc(hipStream_t __stream, hipHostFn_t __fn, void *__user);
__HIPWB_HOST hipError_t hipEventCreate(hipEvent_t *__event);
__HIPWB_HOST hipError_t hipEventCreateWithFlags(hipEvent_t *__event, unsigned int __flags);
__HIPWB_HOST hipError_t hipEventRecord(hipEvent_t __event, hipStream_t __stream = 0);
__HIPWB_HOST hipError_t hipEventSynchronize(hipEvent_t __event);
__HIPWB_HOST hipError_t hipEventQuery(hipEvent_t __event);
__HIPWB_HOST hipError_t hipEventElapsedTime(float *__ms, hipEvent_t __start, hipEvent_t __stop);
__HIPWB_HOST hipError_t hipEventDestroy(hipEvent_t __event);
__HIPWB_HOST hipError_t hipFuncGetAttributes(hipFuncAttributes *__attr, const void *__func);
__HIPWB_HOST hipError_t hipFuncSetAttribute(const void *__func, hipFuncAttribute __attr, int __value);
__HIPWB_HOST hipError_t hipFuncSetCacheConfig(const void *__func, hipFuncCache_t __config);
__HIPWB_HOST hipError_t hipLaunchKernel(const void *__func, dim3 __grid, dim3 __block, void **__args,
                                        size_t __shmem, hipStream_t __stream);
__HIPWB_HOST hipError_t hipLaunchCooperativeKernel(const void *__func, dim3 __grid, dim3 __block,
                                                   void **__args, unsigned int __shmem,
                                                   hipStream_t __stream);
__HIPWB_HOST hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int *__blocks,
                                                                     const void *__func,
                                                                     int __block_size,
                                                                     size_t __dyn_shmem);
__HIPWB_HOST hipError_t hipOccupancyMaxPotentialBlockSize(int *__grid_size, int *__block_size,
                                                          const void *__func, size_t __dyn_shmem,
                                                          int __block_limit);
__HIPWB_HOST hipError_t hipModuleLoad(hipModule_t *__module, const char *__fname);
__HIPWB_HOST hipError_t hipModuleLoadData(hipModule_t *__module, const void *__image);
__HIPWB_HOST hipError_t hipModuleGetFunction(hipFunction_t *__f, hipModule_t __module,
                                             const char *__name);
__HIPWB_HOST hipError_t hipModuleUnload(hipModule_t __module);
__HIPWB_HOST hipError_t hipModuleLaunchKernel(hipFunction_t __f, unsigned int __gx, unsigned int __gy,
                                              unsigned int __gz, unsigned int __bx, unsigned int __by,
                                              unsigned int __bz, unsigned int __shmem,
                                              hipStream_t __stream, void **__params, void **__extra);
__HIPWB_HOST hipError_t hipMallocArray(hipArray_t *__array, const hipChannelFormatDesc *__desc,
                                       size_t __width, size_t __height = 0,
                                       unsigned int __flags = 0);
__HIPWB_HOST hipError_t hipFreeArray(hipArray_t __array);
__HIPWB_HOST hipError_t hipCreateTextureObject(hipTextureObject_t *__tex,
                                               const hipResourceDesc *__res,
                                               const hipTextureDesc *__desc,
                                               const hipResourceViewDesc *__view);
__HIPWB_HOST hipError_t hipDestroyTextureObject(hipTextureObject_t __tex);
__HIPWB_HOST hipChannelFormatDesc hipCreateChannelDesc(int __x, int __y, int __z, int __w,
                                                       hipChannelFormatKind __f);
__HIPWB_HOST hipError_t hipProfilerStart(void);
__HIPWB_HOST hipError_t hipProfilerStop(void);
/* what `kernel<<<grid, block, shmem, stream>>>(...)` lowers to in HIP (clang Sema) */
__HIPWB_HOST unsigned __hipPushCallConfiguration(dim3 __grid, dim3 __block, size_t __shmem = 0,
                                                 hipStream_t __stream = 0);
__HIPWB_HOST hipError_t __hipPopCallConfiguration(dim3 *__grid, dim3 *__block, size_t *__shmem,
                                                  hipStream_t *__stream);
}

/* C++ conveniences of HIP's header: typed pointers and kernel symbols */
template <typename __T>
__HIPWB_HOST inline hipError_t hipMalloc(__T **__ptr, size_t __size) {
  return hipMalloc((void **)__ptr, __size);
}
template <typename __T>
__HIPWB_HOST inline hipError_t hipMallocManaged(__T **__ptr, size_t __size, unsigned int __flags = 1) {
  return hipMallocManaged((void **)__ptr, __size, __flags);
}
template <typename __T>
__HIPWB_HOST inline hipError_t hipHostMalloc(__T **__ptr, size_t __size, unsigned int __flags = 0) {
  return hipHostMalloc((void **)__ptr, __size, __flags);
}
template <typename __T>
__HIPWB_HOST inline hipError_t hipMallocPitch(__T **__ptr, size_t *__pitch, size_t __w, size_t __h) {
  return hipMallocPitch((void **)__ptr, __pitch, __w, __h);
}
template <typename __T>
__HIPWB_HOST inline hipError_t hipMemcpyToSymbol(const __T &__symbol, const void *__src, size_t __n,
                                                 size_t __offset = 0,
                                                 hipMemcpyKind __kind = hipMemcpyHostToDevice) {
  return hipMemcpyToSymbol((const void *)&__symbol, __src, __n, __offset, __kind);
}
template <typename __T>
__HIPWB_HOST inline hipError_t hipMemcpyFromSymbol(void *__dst, const __T &__symbol, size_t __n,
                                                   size_t __offset = 0,
                                                   hipMemcpyKind __kind = hipMemcpyDeviceToHost) {
  return hipMemcpyFromSymbol(__dst, (const void *)&__symbol, __n, __offset, __kind);
}
template <typename __T>
__HIPWB_HOST inline hipError_t hipGetSymbolAddress(void **__dev, const __T &__symbol) {
  return hipGetSymbolAddress(__dev, (const void *)&__symbol);
}
template <typename __T>
__HIPWB_HOST inline hipError_t hipGetSymbolSize(size_t *__size, const __T &__symbol) {
  return hipGetSymbolSize(__size, (const void *)&__symbol);
}
template <typename __F>
__HIPWB_HOST inline hipError_t hipFuncGetAttributes(hipFuncAttributes *__attr, __F __func) {
  return hipFuncGetAttributes(__attr, (const void *)__func);
}
template <typename __F>
__HIPWB_HOST inline hipError_t hipFuncSetAttribute(__F __func, hipFuncAttribute __attr, int __value) {
  return hipFuncSetAttribute((const void *)__func, __attr, __value);
}
template <typename __F>
__HIPWB_HOST inline hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int *__blocks, __F __func,
                                                                            int __block_size,
                                                                            size_t __dyn_shmem) {
  return hipOccupancyMaxActiveBlocksPerMultiprocessor(__blocks, (const void *)__func, __block_size,
                                                      __dyn_shmem);
}
template <typename __F>
__HIPWB_HOST inline hipError_t hipOccupancyMaxPotentialBlockSize(int *__grid_size, int *__block_size,
                                                                 __F __func, size_t __dyn_shmem = 0,
                                                                 int __block_limit = 0) {
  return hipOccupancyMaxPotentialBlockSize(__grid_size, __block_size, (const void *)__func, __dyn_shmem,
                                           __block_limit);
}
template <typename __F>
__HIPWB_HOST inline hipError_t hipLaunchKernel(__F __func, dim3 __grid, dim3 __block, void **__args,
                                               size_t __shmem, hipStream_t __stream) {
  return hipLaunchKernel((const void *)__func, __grid, __block, __args, __shmem, __stream);
}
template <typename __F>
__HIPWB_HOST inline hipError_t hipLaunchCooperativeKernel(__F __func, dim3 __grid, dim3 __block,
                                                          void **__args, unsigned int __shmem,
                                                          hipStream_t __stream) {
  return hipLaunchCooperativeKernel((const void *)__func, __grid, __block, __args, __shmem, __stream);
}
template <typename __T>
__HIPWB_HOST inline hipChannelFormatDesc hipCreateChannelDesc() {
  constexpr int __bits = (int)(sizeof(__T) * 8);
  return hipCreateChannelDesc(__bits, 0, 0, 0,
                              __is_floating_point(__T) ? hipChannelFormatKindFloat
                              : __is_signed(__T)       ? hipChannelFormatKindSigned
                                                     : hipChannelFormatKindUnsigned);
}

/* hipLaunchKernelGGL(kernel, grid, block, shmem, stream, args...): a triple-chevron launch, in
 * the two forms HIP documents (HIP programming guide, "Kernel launch"; hip_runtime.h):
 * - by default a macro that becomes `(kernel)<<<grid, block, shmem, stream>>>(args...)`. The
 *   kernel is one macro argument, so a template-id with commas is written in parentheses,
 *   `hipLaunchKernelGGL((k<256, W, 4>), ...)`, or as `HIP_KERNEL_NAME(k<256, W, 4>)`; template
 *   arguments left out are deduced from the launch's arguments, as in any chevron launch.
 *   The expansion is one statement (`do { ... } while (0)`).
 * - with HIP_TEMPLATE_KERNEL_LAUNCH defined, a function template: `k<A, B>` then passes as one
 *   argument even without parentheses, and a kernel template named without its arguments
 *   converts to F's default, a pointer to a kernel taking exactly the launch's argument types;
 *   a template-id must then name every template argument (there is nothing to deduce from).
 * Either way, naming the kernel in host code makes the device compilation emit that
 * instantiation. */
#if defined(HIP_TEMPLATE_KERNEL_LAUNCH)
template <typename... __Args, typename __F = void (*)(__Args...)>
__host__ inline void hipLaunchKernelGGL(__F __kernel, const dim3 &__grid,
                                                     const dim3 &__block, unsigned int __shmem,
                                                     hipStream_t __stream, __Args... __args) {
  __kernel<<<__grid, __block, __shmem, __stream>>>(__args...);
}
#else
#define __hipwb_launch_ggl(__kernel, __grid, __block, __shmem, __stream, ...)                   \
  do {                                                                                          \
    __kernel<<<(__grid), (__block), (__shmem), (__stream)>>>(__VA_ARGS__);                     \
  } while (0)
#define hipLaunchKernelGGL(__kernel, ...) __hipwb_launch_ggl((__kernel), __VA_ARGS__)
#endif
#define HIP_KERNEL_NAME(...) __VA_ARGS__
/* hipModuleLaunchKernel's `extra` array markers (HIP's values) */
#define HIP_LAUNCH_PARAM_BUFFER_POINTER ((void *)0x01)
#define HIP_LAUNCH_PARAM_BUFFER_SIZE ((void *)0x02)
#define HIP_LAUNCH_PARAM_END ((void *)0x03)
#define HIP_SYMBOL(__X) __X

/* device-side texture fetches: not offline (see the header comment) */
#define __HIPWB_NO_TEX(NAME)                                                                 \
  template <typename __T, typename... __A>                                                       \
  __device__ __T NAME(hipTextureObject_t, __A...) =                                 \
      delete(#NAME " (a texture fetch) is not available offline: the prelude has no image "  \
             "instructions and the emulator does not run MIMG; read the buffer with a pointer");
__HIPWB_NO_TEX(tex1Dfetch)
__HIPWB_NO_TEX(tex1D)
__HIPWB_NO_TEX(tex2D)
__HIPWB_NO_TEX(tex3D)
__HIPWB_NO_TEX(tex1DLayered)
__HIPWB_NO_TEX(tex2DLayered)
#undef __HIPWB_NO_TEX

#undef __HIPWB_HOST

#endif /* HIPWB_HOST_API_H */
