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

#define __HIPWB_HOST __attribute__((host))

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
__HIPWB_HOST hipError_t hipMalloc(void **ptr, size_t size);
__HIPWB_HOST hipError_t hipMallocManaged(void **ptr, size_t size, unsigned int flags = 1);
__HIPWB_HOST hipError_t hipMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height);
__HIPWB_HOST hipError_t hipMalloc3D(hipPitchedPtr *ptr, hipExtent extent);
__HIPWB_HOST hipError_t hipHostMalloc(void **ptr, size_t size, unsigned int flags = 0);
__HIPWB_HOST hipError_t hipMallocHost(void **ptr, size_t size);
__HIPWB_HOST hipError_t hipHostAlloc(void **ptr, size_t size, unsigned int flags);
__HIPWB_HOST hipError_t hipFree(void *ptr);
__HIPWB_HOST hipError_t hipHostFree(void *ptr);
__HIPWB_HOST hipError_t hipFreeHost(void *ptr);
__HIPWB_HOST hipError_t hipHostRegister(void *ptr, size_t size, unsigned int flags);
__HIPWB_HOST hipError_t hipHostUnregister(void *ptr);
__HIPWB_HOST hipError_t hipHostGetDevicePointer(void **dev, void *host, unsigned int flags);
__HIPWB_HOST hipError_t hipMemcpy(void *dst, const void *src, size_t n, hipMemcpyKind kind);
__HIPWB_HOST hipError_t hipMemcpyAsync(void *dst, const void *src, size_t n,
                                       hipMemcpyKind kind, hipStream_t stream = 0);
__HIPWB_HOST hipError_t hipMemcpyHtoD(void *dst, const void *src, size_t n);
__HIPWB_HOST hipError_t hipMemcpyDtoH(void *dst, const void *src, size_t n);
__HIPWB_HOST hipError_t hipMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                                    size_t width, size_t height, hipMemcpyKind kind);
__HIPWB_HOST hipError_t hipMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
                                         size_t spitch, size_t width, size_t height,
                                         hipMemcpyKind kind, hipStream_t stream = 0);
__HIPWB_HOST hipError_t hipMemcpy2DToArray(hipArray_t dst, size_t wOffset, size_t hOffset,
                                           const void *src, size_t spitch, size_t width,
                                           size_t height, hipMemcpyKind kind);
__HIPWB_HOST hipError_t hipMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice,
                                      size_t n);
__HIPWB_HOST hipError_t hipMemset(void *dst, int value, size_t n);
__HIPWB_HOST hipError_t hipMemsetAsync(void *dst, int value, size_t n, hipStream_t stream = 0);
__HIPWB_HOST hipError_t hipMemsetD32(void *dst, int value, size_t count);
__HIPWB_HOST hipError_t hipMemset2D(void *dst, size_t pitch, int value, size_t width,
                                    size_t height);
__HIPWB_HOST hipError_t hipMemGetInfo(size_t *free, size_t *total);
__HIPWB_HOST hipError_t hipMemPrefetchAsync(const void *ptr, size_t n, int device,
                                            hipStream_t stream = 0);
__HIPWB_HOST hipError_t hipMemAdvise(const void *ptr, size_t n, hipMemoryAdvise advice,
                                     int device);
__HIPWB_HOST hipError_t hipMemcpyToSymbol(const void *symbol, const void *src, size_t n,
                                          size_t offset = 0,
                                          hipMemcpyKind kind = hipMemcpyHostToDevice);
__HIPWB_HOST hipError_t hipMemcpyFromSymbol(void *dst, const void *symbol, size_t n,
                                            size_t offset = 0,
                                            hipMemcpyKind kind = hipMemcpyDeviceToHost);
__HIPWB_HOST hipError_t hipMemcpyToSymbolAsync(const void *symbol, const void *src, size_t n,
                                               size_t offset, hipMemcpyKind kind,
                                               hipStream_t stream = 0);
__HIPWB_HOST hipError_t hipGetSymbolAddress(void **dev, const void *symbol);
__HIPWB_HOST hipError_t hipGetSymbolSize(size_t *size, const void *symbol);
__HIPWB_HOST hipError_t hipDeviceSynchronize(void);
__HIPWB_HOST hipError_t hipDeviceReset(void);
__HIPWB_HOST hipError_t hipSetDevice(int device);
__HIPWB_HOST hipError_t hipGetDevice(int *device);
__HIPWB_HOST hipError_t hipGetDeviceCount(int *count);
__HIPWB_HOST hipError_t hipSetDeviceFlags(unsigned int flags);
__HIPWB_HOST hipError_t hipGetDeviceProperties(hipDeviceProp_t *prop, int device);
__HIPWB_HOST hipError_t hipDeviceGetAttribute(int *value, hipDeviceAttribute_t attr, int device);
__HIPWB_HOST hipError_t hipDeviceSetCacheConfig(hipFuncCache_t config);
__HIPWB_HOST hipError_t hipDeviceCanAccessPeer(int *can, int device, int peer);
__HIPWB_HOST hipError_t hipDeviceEnablePeerAccess(int peer, unsigned int flags);
__HIPWB_HOST hipError_t hipDeviceDisablePeerAccess(int peer);
__HIPWB_HOST hipError_t hipDriverGetVersion(int *version);
__HIPWB_HOST hipError_t hipRuntimeGetVersion(int *version);
__HIPWB_HOST hipError_t hipGetLastError(void);
__HIPWB_HOST hipError_t hipPeekAtLastError(void);
__HIPWB_HOST const char *hipGetErrorString(hipError_t error);
__HIPWB_HOST const char *hipGetErrorName(hipError_t error);
__HIPWB_HOST hipError_t hipStreamCreate(hipStream_t *stream);
__HIPWB_HOST hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned int flags);
__HIPWB_HOST hipError_t hipStreamCreateWithPriority(hipStream_t *stream, unsigned int flags,
                                                    int priority);
__HIPWB_HOST hipError_t hipStreamDestroy(hipStream_t stream);
__HIPWB_HOST hipError_t hipStreamSynchronize(hipStream_t stream);
__HIPWB_HOST hipError_t hipStreamQuery(hipStream_t stream);
__HIPWB_HOST hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event,
                                           unsigned int flags = 0);
__HIPWB_HOST hipError_t hipStreamAddCallback(hipStream_t stream, hipStreamCallback_t callback,
                                             void *user, unsigned int flags);
__HIPWB_HOST hipError_t hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn, void *user);
__HIPWB_HOST hipError_t hipEventCreate(hipEvent_t *event);
__HIPWB_HOST hipError_t hipEventCreateWithFlags(hipEvent_t *event, unsigned int flags);
__HIPWB_HOST hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream = 0);
__HIPWB_HOST hipError_t hipEventSynchronize(hipEvent_t event);
__HIPWB_HOST hipError_t hipEventQuery(hipEvent_t event);
__HIPWB_HOST hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop);
__HIPWB_HOST hipError_t hipEventDestroy(hipEvent_t event);
__HIPWB_HOST hipError_t hipFuncGetAttributes(hipFuncAttributes *attr, const void *func);
__HIPWB_HOST hipError_t hipFuncSetAttribute(const void *func, hipFuncAttribute attr, int value);
__HIPWB_HOST hipError_t hipFuncSetCacheConfig(const void *func, hipFuncCache_t config);
__HIPWB_HOST hipError_t hipLaunchKernel(const void *func, dim3 grid, dim3 block, void **args,
                                        size_t shmem, hipStream_t stream);
__HIPWB_HOST hipError_t hipLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block,
                                                   void **args, unsigned int shmem,
                                                   hipStream_t stream);
__HIPWB_HOST hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks,
                                                                     const void *func,
                                                                     int block_size,
                                                                     size_t dyn_shmem);
__HIPWB_HOST hipError_t hipOccupancyMaxPotentialBlockSize(int *grid_size, int *block_size,
                                                          const void *func, size_t dyn_shmem,
                                                          int block_limit);
__HIPWB_HOST hipError_t hipModuleLoad(hipModule_t *module, const char *fname);
__HIPWB_HOST hipError_t hipModuleLoadData(hipModule_t *module, const void *image);
__HIPWB_HOST hipError_t hipModuleGetFunction(hipFunction_t *f, hipModule_t module,
                                             const char *name);
__HIPWB_HOST hipError_t hipModuleUnload(hipModule_t module);
__HIPWB_HOST hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gx, unsigned int gy,
                                              unsigned int gz, unsigned int bx, unsigned int by,
                                              unsigned int bz, unsigned int shmem,
                                              hipStream_t stream, void **params, void **extra);
__HIPWB_HOST hipError_t hipMallocArray(hipArray_t *array, const hipChannelFormatDesc *desc,
                                       size_t width, size_t height = 0,
                                       unsigned int flags = 0);
__HIPWB_HOST hipError_t hipFreeArray(hipArray_t array);
__HIPWB_HOST hipError_t hipCreateTextureObject(hipTextureObject_t *tex,
                                               const hipResourceDesc *res,
                                               const hipTextureDesc *desc,
                                               const hipResourceViewDesc *view);
__HIPWB_HOST hipError_t hipDestroyTextureObject(hipTextureObject_t tex);
__HIPWB_HOST hipChannelFormatDesc hipCreateChannelDesc(int x, int y, int z, int w,
                                                       hipChannelFormatKind f);
__HIPWB_HOST hipError_t hipProfilerStart(void);
__HIPWB_HOST hipError_t hipProfilerStop(void);
/* what `kernel<<<grid, block, shmem, stream>>>(...)` lowers to in HIP (clang Sema) */
__HIPWB_HOST unsigned __hipPushCallConfiguration(dim3 grid, dim3 block, size_t shmem = 0,
                                                 hipStream_t stream = 0);
__HIPWB_HOST hipError_t __hipPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shmem,
                                                  hipStream_t *stream);
}

/* C++ conveniences of HIP's header: typed pointers and kernel symbols */
template <typename T>
__HIPWB_HOST inline hipError_t hipMalloc(T **ptr, size_t size) {
  return hipMalloc((void **)ptr, size);
}
template <typename T>
__HIPWB_HOST inline hipError_t hipMallocManaged(T **ptr, size_t size, unsigned int flags = 1) {
  return hipMallocManaged((void **)ptr, size, flags);
}
template <typename T>
__HIPWB_HOST inline hipError_t hipHostMalloc(T **ptr, size_t size, unsigned int flags = 0) {
  return hipHostMalloc((void **)ptr, size, flags);
}
template <typename T>
__HIPWB_HOST inline hipError_t hipMallocPitch(T **ptr, size_t *pitch, size_t w, size_t h) {
  return hipMallocPitch((void **)ptr, pitch, w, h);
}
template <typename T>
__HIPWB_HOST inline hipError_t hipMemcpyToSymbol(const T &symbol, const void *src, size_t n,
                                                 size_t offset = 0,
                                                 hipMemcpyKind kind = hipMemcpyHostToDevice) {
  return hipMemcpyToSymbol((const void *)&symbol, src, n, offset, kind);
}
template <typename T>
__HIPWB_HOST inline hipError_t hipMemcpyFromSymbol(void *dst, const T &symbol, size_t n,
                                                   size_t offset = 0,
                                                   hipMemcpyKind kind = hipMemcpyDeviceToHost) {
  return hipMemcpyFromSymbol(dst, (const void *)&symbol, n, offset, kind);
}
template <typename T>
__HIPWB_HOST inline hipError_t hipGetSymbolAddress(void **dev, const T &symbol) {
  return hipGetSymbolAddress(dev, (const void *)&symbol);
}
template <typename T>
__HIPWB_HOST inline hipError_t hipGetSymbolSize(size_t *size, const T &symbol) {
  return hipGetSymbolSize(size, (const void *)&symbol);
}
template <typename F>
__HIPWB_HOST inline hipError_t hipFuncGetAttributes(hipFuncAttributes *attr, F func) {
  return hipFuncGetAttributes(attr, (const void *)func);
}
template <typename F>
__HIPWB_HOST inline hipError_t hipFuncSetAttribute(F func, hipFuncAttribute attr, int value) {
  return hipFuncSetAttribute((const void *)func, attr, value);
}
template <typename F>
__HIPWB_HOST inline hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, F func,
                                                                            int block_size,
                                                                            size_t dyn_shmem) {
  return hipOccupancyMaxActiveBlocksPerMultiprocessor(blocks, (const void *)func, block_size,
                                                      dyn_shmem);
}
template <typename F>
__HIPWB_HOST inline hipError_t hipOccupancyMaxPotentialBlockSize(int *grid_size, int *block_size,
                                                                 F func, size_t dyn_shmem = 0,
                                                                 int block_limit = 0) {
  return hipOccupancyMaxPotentialBlockSize(grid_size, block_size, (const void *)func, dyn_shmem,
                                           block_limit);
}
template <typename F>
__HIPWB_HOST inline hipError_t hipLaunchKernel(F func, dim3 grid, dim3 block, void **args,
                                               size_t shmem, hipStream_t stream) {
  return hipLaunchKernel((const void *)func, grid, block, args, shmem, stream);
}
template <typename F>
__HIPWB_HOST inline hipError_t hipLaunchCooperativeKernel(F func, dim3 grid, dim3 block,
                                                          void **args, unsigned int shmem,
                                                          hipStream_t stream) {
  return hipLaunchCooperativeKernel((const void *)func, grid, block, args, shmem, stream);
}
template <typename T>
__HIPWB_HOST inline hipChannelFormatDesc hipCreateChannelDesc() {
  constexpr int bits = (int)(sizeof(T) * 8);
  return hipCreateChannelDesc(bits, 0, 0, 0,
                              __is_floating_point(T) ? hipChannelFormatKindFloat
                              : __is_signed(T)       ? hipChannelFormatKindSigned
                                                     : hipChannelFormatKindUnsigned);
}

/* hipLaunchKernelGGL(kernel, grid, block, shmem, stream, args...): a triple-chevron launch.
 * A function template, as HIP's own under HIP_TEMPLATE_KERNEL_LAUNCH: `kernel<A, B>` passes as
 * one argument (a macro would split it at the comma), and a kernel template named without its
 * arguments converts to F's default, a pointer to a kernel taking exactly the launch's argument
 * types. Naming the kernel in host code makes the device compilation emit that instantiation. */
template <typename... Args, typename F = void (*)(Args...)>
__attribute__((host)) inline void hipLaunchKernelGGL(F kernel, const dim3 &grid,
                                                     const dim3 &block, unsigned int shmem,
                                                     hipStream_t stream, Args... args) {
  kernel<<<grid, block, shmem, stream>>>(args...);
}
#define HIP_KERNEL_NAME(...) __VA_ARGS__
/* hipModuleLaunchKernel's `extra` array markers (HIP's values) */
#define HIP_LAUNCH_PARAM_BUFFER_POINTER ((void *)0x01)
#define HIP_LAUNCH_PARAM_BUFFER_SIZE ((void *)0x02)
#define HIP_LAUNCH_PARAM_END ((void *)0x03)
#define HIP_SYMBOL(X) X

/* device-side texture fetches: not offline (see the header comment) */
#define __HIPWB_NO_TEX(NAME)                                                                 \
  template <typename T, typename... A>                                                       \
  __attribute__((device)) T NAME(hipTextureObject_t, A...) =                                 \
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
