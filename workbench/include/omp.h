/* omp.h — declarations of the common OpenMP runtime functions, so that the host code of a pasted
 * .hip file that includes <omp.h> parses.
 *
 * The workbench compiles device code only: host code is parsed, never built or run, and without
 * -fopenmp clang ignores `#pragma omp` lines. Nothing here is defined; names and signatures
 * follow the OpenMP API specification (5.x, "Runtime Library Routines"). Found through the
 * prelude's include folder, ahead of any omp.h of the system (which the device compilation
 * could not use anyway).
 */
#ifndef HIPWB_OMP_H
#define HIPWB_OMP_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct __hipwb_omp_lock { void *__p; } omp_lock_t;
typedef struct __hipwb_omp_nest_lock { void *__p; } omp_nest_lock_t;
typedef enum omp_sched_t {
  omp_sched_static = 1,
  omp_sched_dynamic = 2,
  omp_sched_guided = 3,
  omp_sched_auto = 4
} omp_sched_t;

#ifdef __host__
#define __HIPWB_OMP __host__
#else
#define __HIPWB_OMP __attribute__((host))
#endif

__HIPWB_OMP void omp_set_num_threads(int);
__HIPWB_OMP int omp_get_num_threads(void);
__HIPWB_OMP int omp_get_max_threads(void);
__HIPWB_OMP int omp_get_thread_num(void);
__HIPWB_OMP int omp_get_num_procs(void);
__HIPWB_OMP int omp_in_parallel(void);
__HIPWB_OMP void omp_set_dynamic(int);
__HIPWB_OMP int omp_get_dynamic(void);
__HIPWB_OMP void omp_set_nested(int);
__HIPWB_OMP int omp_get_nested(void);
__HIPWB_OMP void omp_set_schedule(omp_sched_t, int);
__HIPWB_OMP void omp_get_schedule(omp_sched_t *, int *);
__HIPWB_OMP int omp_get_thread_limit(void);
__HIPWB_OMP void omp_set_max_active_levels(int);
__HIPWB_OMP int omp_get_max_active_levels(void);
__HIPWB_OMP int omp_get_level(void);
__HIPWB_OMP int omp_get_ancestor_thread_num(int);
__HIPWB_OMP int omp_get_team_size(int);
__HIPWB_OMP int omp_get_active_level(void);
__HIPWB_OMP int omp_in_final(void);
__HIPWB_OMP int omp_get_num_devices(void);
__HIPWB_OMP int omp_get_default_device(void);
__HIPWB_OMP void omp_set_default_device(int);
__HIPWB_OMP int omp_is_initial_device(void);
__HIPWB_OMP double omp_get_wtime(void);
__HIPWB_OMP double omp_get_wtick(void);
__HIPWB_OMP void omp_init_lock(omp_lock_t *);
__HIPWB_OMP void omp_destroy_lock(omp_lock_t *);
__HIPWB_OMP void omp_set_lock(omp_lock_t *);
__HIPWB_OMP void omp_unset_lock(omp_lock_t *);
__HIPWB_OMP int omp_test_lock(omp_lock_t *);
__HIPWB_OMP void omp_init_nest_lock(omp_nest_lock_t *);
__HIPWB_OMP void omp_destroy_nest_lock(omp_nest_lock_t *);
__HIPWB_OMP void omp_set_nest_lock(omp_nest_lock_t *);
__HIPWB_OMP void omp_unset_nest_lock(omp_nest_lock_t *);
__HIPWB_OMP int omp_test_nest_lock(omp_nest_lock_t *);

#undef __HIPWB_OMP

#ifdef __cplusplus
}
#endif

#endif /* HIPWB_OMP_H */
