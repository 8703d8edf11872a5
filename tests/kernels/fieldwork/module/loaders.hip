// loaders.hip: two ways to get a kernel at run time (host code only).
//
// 1. hipModuleLoad a code object next to the executable (module_kernels.hip, built with
//    --genco) and launch its extern "C" kernel with hipModuleLaunchKernel;
// 2. compile a kernel from a string with hiprtc -- its typedefs come from two in-memory
//    headers -- then hipModuleLoadData the result.
// Part of hipwb's fieldwork corpus.
#include "field_utils.hpp"

#include <hip/hip_runtime.h>
#include <hip/hiprtc.h>

#include <filesystem>
#include <iostream>
#include <numeric>
#include <string>
#include <vector>

#define HIPRTC_CHECK(expr)                                                                   \
    do                                                                                       \
    {                                                                                        \
        const hiprtcResult rtc_status_ = (expr);                                             \
        if(rtc_status_ != HIPRTC_SUCCESS)                                                    \
        {                                                                                    \
            std::cerr << #expr << ": " << hiprtcGetErrorString(rtc_status_) << std::endl;    \
            std::exit(field::exit_failure);                                                  \
        }                                                                                    \
    }                                                                                        \
    while(false)

namespace
{

constexpr const char* rtc_source = "#include \"scalar.h\"\n"
                                   "#include \"pointer.h\"\n"
                                   R"(
extern "C" __global__ void rtc_axpy(scalar_t a, const_ptr_t x, ptr_t y, unsigned int n)
{
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < n)
        y[i] += a * x[i];
}
)";

int from_code_object(const std::filesystem::path& folder)
{
    constexpr unsigned int n = 1024;
    std::vector<float>     in(n), out(n);
    std::iota(in.begin(), in.end(), 0.f);
    float *d_in{}, *d_out{};
    HIP_CHECK(hipMalloc(&d_in, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_out, n * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_in, in.data(), n * sizeof(float), hipMemcpyHostToDevice));

    const std::filesystem::path object = folder / "module_kernels.co";
    hipModule_t                 module{};
    hipFunction_t               copy{};
    HIP_CHECK(hipModuleLoad(&module, object.string().c_str()));
    HIP_CHECK(hipModuleGetFunction(&copy, module, "module_copy"));

    struct
    {
        float*       out;
        const float* in;
    } packed{d_out, d_in};
    size_t packed_size = sizeof(packed);
    void*  config[]    = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &packed, HIP_LAUNCH_PARAM_BUFFER_SIZE,
                          &packed_size, HIP_LAUNCH_PARAM_END};
    HIP_CHECK(hipModuleLaunchKernel(copy, n / 256, 1, 1, 256, 1, 1, 0, nullptr, nullptr, config));
    HIP_CHECK(hipMemcpy(out.data(), d_out, n * sizeof(float), hipMemcpyDeviceToHost));
    HIP_CHECK(hipModuleUnload(module));
    HIP_CHECK(hipFree(d_in));
    HIP_CHECK(hipFree(d_out));
    return field::verdict(field::mismatches(out, in), "module_copy");
}

int from_string()
{
    const char* header_names[]   = {"scalar.h", "pointer.h"};
    const char* header_sources[] = {"typedef float scalar_t;\n",
                                    "typedef float* ptr_t;\ntypedef const float* const_ptr_t;\n"};
    hiprtcProgram program{};
    HIPRTC_CHECK(hiprtcCreateProgram(&program, rtc_source, "rtc_axpy.hip", 2, header_sources, header_names));

    hipDeviceProp_t props{};
    HIP_CHECK(hipGetDeviceProperties(&props, 0));
    std::vector<std::string> options;
#ifdef __HIP_PLATFORM_AMD__
    options.push_back(std::string("--offload-arch=") + props.gcnArchName);
#endif
    options.push_back("-O3");
    std::vector<const char*> option_ptrs;
    for(const auto& o : options)
        option_ptrs.push_back(o.c_str());

    const hiprtcResult built = hiprtcCompileProgram(program, int(option_ptrs.size()), option_ptrs.data());
    size_t             log_size = 0;
    HIPRTC_CHECK(hiprtcGetProgramLogSize(program, &log_size));
    if(log_size > 1)
    {
        std::string log(log_size, '\0');
        HIPRTC_CHECK(hiprtcGetProgramLog(program, log.data()));
        std::cerr << log << std::endl;
    }
    HIPRTC_CHECK(built);
    size_t code_size = 0;
    HIPRTC_CHECK(hiprtcGetCodeSize(program, &code_size));
    std::vector<char> code(code_size);
    HIPRTC_CHECK(hiprtcGetCode(program, code.data()));
    HIPRTC_CHECK(hiprtcDestroyProgram(&program));

    hipModule_t   module{};
    hipFunction_t axpy{};
    HIP_CHECK(hipModuleLoadData(&module, code.data()));
    HIP_CHECK(hipModuleGetFunction(&axpy, module, "rtc_axpy"));

    unsigned int       n = 4096;
    float              a = 3.f;
    std::vector<float> x(n, 1.f), y(n, 2.f);
    float *            d_x{}, *d_y{};
    HIP_CHECK(hipMalloc(&d_x, n * sizeof(float)));
    HIP_CHECK(hipMalloc(&d_y, n * sizeof(float)));
    HIP_CHECK(hipMemcpy(d_x, x.data(), n * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_y, y.data(), n * sizeof(float), hipMemcpyHostToDevice));
    void* args[] = {&a, &d_x, &d_y, &n};
    HIP_CHECK(hipModuleLaunchKernel(axpy, n / 128, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr));
    HIP_CHECK(hipGetLastError());
    HIP_CHECK(hipMemcpy(y.data(), d_y, n * sizeof(float), hipMemcpyDeviceToHost));
    HIP_CHECK(hipFree(d_x));
    HIP_CHECK(hipFree(d_y));
    HIP_CHECK(hipModuleUnload(module));
    return field::verdict(std::count_if(y.begin(), y.end(), [](float v) { return v != 5.f; }), "rtc_axpy");
}

} // namespace

int main(int, char** argv)
{
    const auto folder = std::filesystem::absolute(argv[0]).parent_path();
    return from_code_object(folder) | from_string();
}
