/* SampleKit.hpp: the host-side scaffolding of hipwb's "SDK-style" fieldwork samples.
 *
 * Older GPU SDKs wrapped every sample in a class with setup / run / verify / cleanup steps, a
 * command-line table of typed options, a wall-clock timer and templated result checks, all in
 * one header shared by every sample folder and included by relative path
 * ("../include/SampleKit.hpp"). This is our own small version of that pattern, written for
 * hipwb's test corpus.
 */
#ifndef SAMPLEKIT_HPP_
#define SAMPLEKIT_HPP_

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#ifdef _WIN32
#include <windows.h>
#include <malloc.h>
#else
#include <malloc.h>
#include <sys/time.h>
#include <unistd.h>
#endif

#define SAMPLE_OK 0
#define SAMPLE_FAIL 1
#define SAMPLE_SKIP 2

#define CHECK_ALLOC(ptr, what)                                              \
    if((ptr) == NULL)                                                       \
    {                                                                       \
        std::cerr << "allocation failed: " << (what) << std::endl;          \
        return SAMPLE_FAIL;                                                 \
    }

#define CHECK_STATUS(status, what)                                          \
    if((status) != SAMPLE_OK)                                               \
    {                                                                       \
        std::cerr << (what) << " failed" << std::endl;                      \
        return SAMPLE_FAIL;                                                 \
    }

#define SAFE_FREE(ptr)                                                      \
    do                                                                      \
    {                                                                       \
        if(ptr)                                                             \
        {                                                                   \
            free(ptr);                                                      \
            (ptr) = NULL;                                                   \
        }                                                                   \
    } while(0)

#ifdef _WIN32
#define ALIGNED_ALLOC(size, align) _aligned_malloc((size), (align))
#define ALIGNED_FREE(ptr) _aligned_free(ptr)
#else
#define ALIGNED_ALLOC(size, align) memalign((align), (size))
#define ALIGNED_FREE(ptr) free(ptr)
#endif

namespace samplekit
{

enum OptionType
{
    OPT_INT,
    OPT_UINT,
    OPT_FLOAT,
    OPT_BOOL,
    OPT_STRING
};

/* One command-line option: "-s" / "--long", the address of the variable it sets. */
struct CmdOption
{
    std::string shortName;
    std::string longName;
    std::string description;
    OptionType  type;
    void*       target;
};

class CmdLine
{
public:
    void add(const char* shortName, const char* longName, const char* description, OptionType type, void* target)
    {
        CmdOption o;
        o.shortName   = shortName;
        o.longName    = longName;
        o.description = description;
        o.type        = type;
        o.target      = target;
        options.push_back(o);
    }

    int parse(int argc, char** argv)
    {
        for(int i = 1; i < argc; ++i)
        {
            const CmdOption* o = find(argv[i]);
            if(o == NULL)
            {
                std::cerr << "unknown option " << argv[i] << std::endl;
                help(argv[0]);
                return SAMPLE_FAIL;
            }
            if(o->type == OPT_BOOL)
            {
                *static_cast<bool*>(o->target) = true;
                continue;
            }
            if(++i >= argc)
            {
                std::cerr << argv[i - 1] << " needs a value" << std::endl;
                return SAMPLE_FAIL;
            }
            switch(o->type)
            {
            case OPT_INT: *static_cast<int*>(o->target) = atoi(argv[i]); break;
            case OPT_UINT: *static_cast<unsigned int*>(o->target) = (unsigned int)strtoul(argv[i], NULL, 10); break;
            case OPT_FLOAT: *static_cast<float*>(o->target) = (float)atof(argv[i]); break;
            case OPT_STRING: *static_cast<std::string*>(o->target) = argv[i]; break;
            default: break;
            }
        }
        return SAMPLE_OK;
    }

    void help(const char* program) const
    {
        std::cout << "Usage: " << program << " [options]" << std::endl;
        for(size_t i = 0; i < options.size(); ++i)
            std::cout << "  -" << options[i].shortName << ", --" << options[i].longName << "\t"
                      << options[i].description << std::endl;
    }

private:
    const CmdOption* find(const char* arg) const
    {
        for(size_t i = 0; i < options.size(); ++i)
        {
            if((arg[0] == '-' && options[i].shortName == arg + 1)
               || (strncmp(arg, "--", 2) == 0 && options[i].longName == arg + 2))
                return &options[i];
        }
        return NULL;
    }

    std::vector<CmdOption> options;
};

/* Wall-clock seconds between start() and stop(), summed over calls. */
class Timer
{
public:
    Timer() : total(0), began(0) {}
    void   start() { began = now(); }
    void   stop() { total += now() - began; }
    void   reset() { total = 0; }
    double seconds() const { return total; }

private:
    static double now()
    {
#ifdef _WIN32
        LARGE_INTEGER count, frequency;
        QueryPerformanceCounter(&count);
        QueryPerformanceFrequency(&frequency);
        return double(count.QuadPart) / double(frequency.QuadPart);
#else
        struct timeval tv;
        gettimeofday(&tv, NULL);
        return tv.tv_sec + tv.tv_usec * 1e-6;
#endif
    }
    double total;
    double began;
};

/* true when every element of data is within epsilon (relative for large values) of ref */
template<typename T>
bool compare(const T* ref, const T* data, size_t length, double epsilon = 1e-6)
{
    for(size_t i = 0; i < length; ++i)
    {
        const double diff  = std::fabs(double(ref[i]) - double(data[i]));
        const double scale = std::fabs(double(ref[i])) > 1.0 ? std::fabs(double(ref[i])) : 1.0;
        if(diff > epsilon * scale)
            return false;
    }
    return true;
}

template<typename T>
void fillRandom(T* data, size_t width, size_t height, T low, T high, unsigned int seed = 0)
{
    srand(seed ? seed : (unsigned int)time(NULL));
    const double range = double(high) - double(low);
    for(size_t i = 0; i < width * height; ++i)
        data[i] = T(double(low) + range * (double(rand()) / RAND_MAX));
}

template<typename T>
void printArray(const std::string& name, const T* data, size_t count, size_t shown = 8)
{
    std::cout << name << ":";
    for(size_t i = 0; i < count && i < shown; ++i)
        std::cout << " " << data[i];
    std::cout << (count > shown ? " ..." : "") << std::endl;
}

template<typename T>
bool isPowerOf2(T v)
{
    return v != 0 && (v & (v - 1)) == 0;
}

/* Base class of every sample: the driver calls the steps in order. */
class SampleBase
{
public:
    explicit SampleBase(const char* sampleName)
        : name(sampleName), iterations(1), quiet(false), verify(false), timing(false)
    {
    }
    virtual ~SampleBase() {}

    virtual int initialize()
    {
        cmd.add("i", "iterations", "times the kernel is run", OPT_INT, &iterations);
        cmd.add("q", "quiet", "print nothing but errors", OPT_BOOL, &quiet);
        cmd.add("e", "verify", "check the result on the host", OPT_BOOL, &verify);
        cmd.add("t", "timing", "print timings", OPT_BOOL, &timing);
        return SAMPLE_OK;
    }
    virtual int setup()   = 0;
    virtual int run()     = 0;
    virtual int verifyResults() = 0;
    virtual int cleanup() = 0;

    int main(int argc, char** argv)
    {
        CHECK_STATUS(initialize(), "initialize");
        CHECK_STATUS(cmd.parse(argc, argv), "command line");
        CHECK_STATUS(setup(), "setup");
        timer.start();
        for(int i = 0; i < iterations; ++i)
            CHECK_STATUS(run(), "run");
        timer.stop();
        if(verify)
            CHECK_STATUS(verifyResults(), "verification");
        if(timing && !quiet)
            std::cout << name << ": " << std::setprecision(4) << timer.seconds() / iterations
                      << " s per iteration" << std::endl;
        return cleanup();
    }

protected:
    std::string name;
    int         iterations;
    bool        quiet;
    bool        verify;
    bool        timing;
    CmdLine     cmd;
    Timer       timer;
};

} // namespace samplekit

#endif // SAMPLEKIT_HPP_
