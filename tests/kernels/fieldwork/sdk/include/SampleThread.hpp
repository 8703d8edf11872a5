/* SampleThread.hpp: a mutex and a joinable thread for host-side work in the samples of
 * hipwb's fieldwork corpus (pthreads; Win32 threads on Windows). */
#ifndef SAMPLETHREAD_HPP_
#define SAMPLETHREAD_HPP_

#ifdef _WIN32
#include <windows.h>
#else
#include <pthread.h>
#endif

namespace samplekit
{

typedef void* (*ThreadBody)(void*);

class Lock
{
public:
#ifdef _WIN32
    Lock() { InitializeCriticalSection(&section); }
    ~Lock() { DeleteCriticalSection(&section); }
    void acquire() { EnterCriticalSection(&section); }
    void release() { LeaveCriticalSection(&section); }
private:
    CRITICAL_SECTION section;
#else
    Lock() { pthread_mutex_init(&mutex, NULL); }
    ~Lock() { pthread_mutex_destroy(&mutex); }
    void acquire() { pthread_mutex_lock(&mutex); }
    void release() { pthread_mutex_unlock(&mutex); }
private:
    pthread_mutex_t mutex;
#endif
    Lock(const Lock&);
    Lock& operator=(const Lock&);
};

/* Holds a lock for the lifetime of a scope. */
class Guard
{
public:
    explicit Guard(Lock& l) : lock(l) { lock.acquire(); }
    ~Guard() { lock.release(); }
private:
    Lock& lock;
};

class Thread
{
public:
    Thread() : started(false) {}
    bool start(ThreadBody body, void* arg)
    {
#ifdef _WIN32
        handle  = CreateThread(NULL, 0, (LPTHREAD_START_ROUTINE)body, arg, 0, NULL);
        started = handle != NULL;
#else
        started = pthread_create(&handle, NULL, body, arg) == 0;
#endif
        return started;
    }
    void join()
    {
        if(!started)
            return;
#ifdef _WIN32
        WaitForSingleObject(handle, INFINITE);
        CloseHandle(handle);
#else
        pthread_join(handle, NULL);
#endif
        started = false;
    }
private:
#ifdef _WIN32
    HANDLE handle;
#else
    pthread_t handle;
#endif
    bool started;
};

} // namespace samplekit

#endif
