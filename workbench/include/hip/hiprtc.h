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
__attribute__((host)) const char *hiprtcGetErrorString(hiprtcResult result);
__attribute__((host)) hiprtcResult hiprtcVersion(int *major, int *minor);
__attribute__((host)) hiprtcResult hiprtcCreateProgram(hiprtcProgram *prog, const char *src,
                                                       const char *name, int num_headers,
                                                       const char *const *headers,
                                                       const char *const *include_names);
__attribute__((host)) hiprtcResult hiprtcDestroyProgram(hiprtcProgram *prog);
__attribute__((host)) hiprtcResult hiprtcCompileProgram(hiprtcProgram prog, int num_options,
                                                        const char *const *options);
__attribute__((host)) hiprtcResult hiprtcAddNameExpression(hiprtcProgram prog,
                                                           const char *name_expression);
__attribute__((host)) hiprtcResult hiprtcGetLoweredName(hiprtcProgram prog,
                                                        const char *name_expression,
                                                        const char **lowered_name);
__attribute__((host)) hiprtcResult hiprtcGetProgramLogSize(hiprtcProgram prog, size_t *size);
__attribute__((host)) hiprtcResult hiprtcGetProgramLog(hiprtcProgram prog, char *log);
__attribute__((host)) hiprtcResult hiprtcGetCodeSize(hiprtcProgram prog, size_t *size);
__attribute__((host)) hiprtcResult hiprtcGetCode(hiprtcProgram prog, char *code);
__attribute__((host)) hiprtcResult hiprtcGetBitcodeSize(hiprtcProgram prog, size_t *size);
__attribute__((host)) hiprtcResult hiprtcGetBitcode(hiprtcProgram prog, char *bitcode);
}
#endif /* HIPWB_HIP_HIPRTC_H */
