/* Checks of gsp_run_info's stage fields (setup_seconds ... paths_seconds,
 * doc/run-info.md) and of its size rule, shared by tests/test_run_info.c
 * (CPU engines) and tests/gpu/test_gpu_sssp.c (CUDA engines). Header-only,
 * C99; include testing.h first. */
#ifndef GSP_TESTS_RUN_INFO_CHECK_H
#define GSP_TESTS_RUN_INFO_CHECK_H

#include <stddef.h>

#include "testing.h"

/* What a stage must be after a run. */
enum { T_ZERO, T_POSITIVE, T_ANY };

/* The stages are disjoint parts of `seconds`; on CUDA they are read from
 * events, another clock than the one `seconds` comes from: allow this much. */
#define T_STAGE_SLACK_S 1e-4

/* want: T_ZERO / T_POSITIVE / T_ANY for set-up, compute, copy, paths. */
T_FN void t_check_stages(const gsp_run_info* info, const int want[4], const char* what) {
  const double t[4] = {info->setup_seconds, info->compute_seconds, info->copy_seconds, info->paths_seconds};
  static const char* const names[4] = {"setup", "compute", "copy", "paths"};
  double sum = 0;
  int k;
  CHECK(info->size == sizeof *info, "%s: size %u, want %u", what, info->size, (unsigned)sizeof *info);
  for (k = 0; k < 4; k++) {
    CHECK(t[k] >= 0 && t[k] < 1e6, "%s: %s_seconds = %g", what, names[k], t[k]);
    if (want[k] == T_ZERO) CHECK(t[k] == 0, "%s: %s_seconds = %g, documented as 0", what, names[k], t[k]);
    if (want[k] == T_POSITIVE) CHECK(t[k] > 0, "%s: %s_seconds = %g, documented as measured", what, names[k], t[k]);
    sum += t[k];
  }
  CHECK(sum <= info->seconds * 1.001 + T_STAGE_SLACK_S, "%s: stages add up to %.9f s, more than the run's %.9f s", what,
        sum, info->seconds);
}

/* The run info of `paths` (or, when it is NULL, of `table`) as callers of
 * other versions ask for it: a libgsp 0.1 caller's struct (up to
 * has_paths) gets the old fields, equal to this version's, and not one byte
 * after them; a size between two fields is rounded down to whole fields; a
 * newer caller's larger struct gets this version's and the rest untouched;
 * a size below 0.1's is refused without a write. `full`: this version's. */
T_FN void t_check_old_sizes(const gsp_paths* paths, const gsp_table* table, const gsp_run_info* full,
                            const char* what) {
  union {
    gsp_run_info info;
    unsigned char bytes[sizeof(gsp_run_info) + 32];
  } u;
  const size_t v01 = offsetof(gsp_run_info, setup_seconds);
  const size_t asked[4] = {v01, offsetof(gsp_run_info, compute_seconds) + 4, sizeof(gsp_run_info) + 32, v01 - 8};
  const size_t written[4] = {v01, offsetof(gsp_run_info, compute_seconds), sizeof(gsp_run_info), 0};
  int k;
  size_t b;
  for (k = 0; k < 4; k++) {
    gsp_status st;
    int untouched = 1;
    memset(u.bytes, 0xA5, sizeof u.bytes);
    u.info.size = (uint32_t)asked[k];
    st = paths != NULL ? gsp_paths_info(paths, &u.info) : gsp_table_info(table, &u.info);
    if (written[k] == 0) {
      CHECK_STATUS(st, GSP_ERR_INVALID_ARGUMENT);
      for (b = sizeof u.info.size; b < sizeof u.bytes; b++) untouched = untouched && u.bytes[b] == 0xA5;
      CHECK(untouched, "%s: a refused size %u wrote into the struct", what, (unsigned)asked[k]);
      continue;
    }
    CHECK_OK(st);
    CHECK(u.info.size == written[k], "%s: size %u asked, %u written, want %u", what, (unsigned)asked[k], u.info.size,
          (unsigned)written[k]);
    CHECK(u.info.backend == full->backend && u.info.algorithm == full->algorithm &&
              u.info.weight_type == full->weight_type && u.info.num_vertices == full->num_vertices &&
              u.info.num_sources == full->num_sources && u.info.device == full->device &&
              strcmp(u.info.device_name, full->device_name) == 0 && u.info.seconds == full->seconds &&
              u.info.upload_seconds == full->upload_seconds && u.info.iterations == full->iterations &&
              u.info.relaxations == full->relaxations && u.info.has_paths == full->has_paths,
          "%s: the fields of a %u-byte struct differ from this version's", what, (unsigned)asked[k]);
    if (written[k] > v01) {
      CHECK(u.info.setup_seconds == full->setup_seconds, "%s: setup_seconds of a %u-byte struct", what,
            (unsigned)asked[k]);
    }
    for (b = written[k]; b < sizeof u.bytes; b++) untouched = untouched && u.bytes[b] == 0xA5;
    CHECK(untouched, "%s: a %u-byte struct got bytes past %u", what, (unsigned)asked[k], (unsigned)written[k]);
  }
}

#endif
