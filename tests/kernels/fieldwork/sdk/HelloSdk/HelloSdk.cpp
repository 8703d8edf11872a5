/* HelloSdk.cpp: the smallest sample -- a kernel shifts every character of a message by one;
 * the message may come from a file. Written for hipwb's fieldwork corpus.
 * Saved in Latin-1, as some older samples are: Grüße, 25 °C, 3 µs.
 */
#include <hip/hip_runtime.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <iostream>
#include <string>
#include <fstream>

#define SUCCESS 0
#define FAILURE 1

__global__ void shiftChars(const char* in, char* out, const int length)
{
    const int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
    if(i < length)
        out[i] = in[i] + 1;
}

static std::string readMessage(const char* path)
{
    std::ifstream file(path);
    if(!file.is_open())
        return std::string("Gdkkn\x1fVnqkc"); /* "Hello World" minus one */
    std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    return text;
}

int main(int argc, char* argv[])
{
    const std::string message = readMessage(argc > 1 ? argv[1] : "message.txt");
    const int         length  = (int)message.size();
    char*             output  = (char*)malloc(length + 1);

    char *devIn, *devOut;
    hipMalloc((void**)&devIn, length);
    hipMalloc((void**)&devOut, length);
    hipMemcpy(devIn, message.c_str(), length, hipMemcpyHostToDevice);
    hipLaunchKernelGGL(shiftChars, dim3(1), dim3(length), 0, 0, devIn, devOut, length);
    hipMemcpy(output, devOut, length, hipMemcpyDeviceToHost);
    output[length] = '\0';

    std::cout << "input:  " << message << std::endl;
    std::cout << "output: " << output << std::endl;
    hipFree(devIn);
    hipFree(devOut);
    free(output);
    return SUCCESS;
}
