// timer.h: microsecond wall-clock timing for the n-body programs (hipwb fieldwork corpus).
#ifndef NBODY_TIMER_H
#define NBODY_TIMER_H

#include <stdlib.h>
#ifdef _WIN32
#include <windows.h>
static double nbody_now_seconds(void)
{
    LARGE_INTEGER f, c;
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&c);
    return (double)c.QuadPart / (double)f.QuadPart;
}
#else
#include <sys/time.h>
static double nbody_now_seconds(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return tv.tv_sec + tv.tv_usec * 1e-6;
}
#endif

static double nbody_started;
#define StartTimer() (nbody_started = nbody_now_seconds())
#define GetTimer() ((nbody_now_seconds() - nbody_started) * 1000.0) /* milliseconds */

#endif
