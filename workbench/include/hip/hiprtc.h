/* hip/hiprtc.h — declarations of HIP's runtime compilation API (host code only).
 *
 * Host programs that compile kernels at run time (hiprtcCreateProgram/hiprtcCompileProgram)
 * parse; as with the rest of the host API (hipwb/host_api.h) nothing of it is built or run, and
 * kernels inside string literals are not compiled by the workbench. Names and signatures follow
 * HIP's hiprtc reference. */
#ifndef HIPWB_HIP_HIPRTC_H
#define HIPWB_HIP_HIPRTC_H
#include "hip_runtime.h"

typedef enum hiprtcResult {
  HIPRTC_SUCCESS = 0,
  HIPRTC_ERROR_OUT_OF_MEMORY = 1,
  HIPRTC_ERROR_PROGRAM_CREATION_FAILURE = 2,
  HIPRTC_ERROR_INVALID_INPUT = 3,
  HIPRTC_ERROR_INVALID_PROGRAM = 4,
  HIPRTC_ERROR_INVALID_OPTION = 5,
  HIPRTC_ERROR_COMPILATION = 6,
  HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE = 7,
  HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION = 8,
  HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION = 9,
  HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID = 10,
  HIPRTC_ERROR_INTERNAL_ERROR = 11,
} hiprtcResult;
typedef struct _hiprtcProgram *hiprtcProgram;

extern "C" {
__host__ const char *hiprtcGetErrorString(hiprtcResult __result);
__host__ hiprtcResult hiprtcVersion(int *__major, int *__minor);
__host__ hiprtcResult hiprtcCreateProgram(hiprtcProgram *__prog, const char *__src,
                                                       const char *__name, int __num_headers,
                                                       const char *const *__headers,
                                                       const char *const *__include_names);
__host__ hiprtcResult hiprtcDestroyProgram(hiprtcProgram *__prog);
__host__ hiprtcResult hiprtcCompileProgram(hiprtcProgram __prog, int __num_options,
                                                        const char *const *__options);
__host__ hiprtcResult hiprtcAddNameExpression(hiprtcProgram __prog,
                                                           const char *__name_expression);
__host__ hiprtcResult hiprtcGetLoweredName(hiprtcProgram __prog,
                                                        const char *__name_expression,
                                                        const char **__lowered_name);
__host__ hiprtcResult hiprtcGetProgramLogSize(hiprtcProgram __prog, size_t *__size);
__host__ hiprtcResult hiprtcGetProgramLog(hiprtcProgram __prog, char *__log);
__host__ hiprtcResult hiprtcGetCodeSize(hiprtcProgram __prog, size_t *__size);
__host__ hiprtcResult hiprtcGetCode(hiprtcProgram __prog, char *__code);
__host__ hiprtcResult hiprtcGetBitcodeSize(hiprtcProgram __prog, size_t *__size);
__host__ hiprtcResult hiprtcGetBitcode(hiprtcProgram __prog, char *__bitcode);
}
#endif /* HIPWB_HIP_HIPRTC_H */
