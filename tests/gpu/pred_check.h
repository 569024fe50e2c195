/* Predecessor check shared by the GPU SSSP tests: O(m), fit for large
 * graphs (check_tree() in test_gpu_sssp_family_shapes.c also follows the
 * chains). */
#ifndef GSP_TEST_PRED_CHECK_H
#define GSP_TEST_PRED_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gsp/gsp.h"
#include "testing.h" /* t_dist_at, t_dist_bytes */

/* Every predecessor is an arc (u, v) with d(u) + w == d(v) (f32: within rounding,
 * f64: within 1e-12 relative), for every weight type (testing.h's t_dist_at),
 * checked against the graph's CSR; -1 exactly for the source and unreachable vertices. */
static inline int check_pred_csr(const gsp_graph* g, const gsp_paths* p, int32_t src, gsp_dtype dt, const char* what) {
  const int32_t n = gsp_graph_num_vertices(g);
  const int64_t m = gsp_graph_num_edges(g);
  int64_t* off = (int64_t*)malloc((size_t)(n + 1) * sizeof(int64_t));
  int32_t* tgt = (int32_t*)malloc((size_t)(m ? m : 1) * sizeof(int32_t));
  void* w = malloc((size_t)(m ? m : 1) * t_dist_bytes(dt));
  int32_t* pred = (int32_t*)malloc((size_t)n * sizeof(int32_t));
  void* dist = malloc((size_t)n * t_dist_bytes(dt));
  int bad = 0;
  int32_t v;
  if (gsp_graph_csr(g, off, tgt, w) != GSP_OK || gsp_paths_predecessors(p, src, pred, n) != GSP_OK ||
      gsp_paths_distances(p, src, dist, n) != GSP_OK) {
    bad = 1;
  done:
    free(off);
    free(tgt);
    free(w);
    free(pred);
    free(dist);
    return bad;
  }
  for (v = 0; v < n && bad < 5; v++) {
    int reach = !isinf(t_dist_at(dist, dt, v));
    int32_t u = pred[v];
    int64_t e;
    int found = 0;
    if (v == src || !reach) {
      if (u != -1) {
        fprintf(stderr, "%s: pred[%d] = %d, want -1\n", what, v, u);
        bad++;
      }
      continue;
    }
    if (u < 0 || u >= n) {
      fprintf(stderr, "%s: pred[%d] = %d\n", what, v, u);
      bad++;
      continue;
    }
    for (e = off[u]; e < off[u + 1] && !found; e++) {
      if (tgt[e] != v) continue;
      if (dt == GSP_I32) {
        found = (int64_t)((int32_t*)dist)[u] + ((int32_t*)w)[e] == (int64_t)((int32_t*)dist)[v];
      } else {
        double s = t_dist_at(dist, dt, u) + t_dist_at(w, dt, e), want = t_dist_at(dist, dt, v);
        found = fabs(s - want) <= (dt == GSP_F64 ? 1e-12 : 1e-5) * (fabs(want) + 1.0);
      }
    }
    if (!found) {
      fprintf(stderr, "%s: pred[%d] = %d is no tight arc\n", what, v, u);
      bad++;
    }
  }
  goto done;
}

#endif
