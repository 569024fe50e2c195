/* GSP_F64 checks shared by the GPU tests: graphs whose weights float cannot
 * hold (integers of 1e8..2e8, or values scaled past FLT_MAX), and a GPU row
 * compared with the CPU engine's GSP_F64 row. Header-only, C99. */
#ifndef GSP_TEST_F64_CHECK_H
#define GSP_TEST_F64_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "gsp/gsp.h"
#include "testing.h"

/* A copy of a's arcs with integer weights of magnitude 1e8..2e8 (a's signs;
 * zero arcs stay zero): exact in int32, int64 and double, not in float
 * (2^24), and their sums far past float's exact range. The int64 references
 * and path checks of testing.h apply unchanged to the GSP_F64 graph of the
 * copy (t_graph(out, GSP_F64, 1.0f), compared at scale 1: exactly). Free
 * with t_arcs_free. */
T_FN void t_f64_big_arcs(const t_arcs* a, t_arcs* out, uint64_t seed) {
  t_rng r = {seed};
  int64_t k;
  t_arcs_init(out, a->name, a->n);
  for (k = 0; k < a->m; k++) {
    const int32_t mag = 100000000 + t_below(&r, 100000000);
    t_arc(out, a->src[k], a->dst[k], a->w[k] < 0 ? -mag : a->w[k] == 0 ? 0 : mag);
  }
}

/* The GSP_F64 graph of a's arcs with every weight times `scale` (a double:
 * 1e40 is beyond float's 3.4e38; testing.h's t_graph takes a float scale). */
T_FN gsp_graph* t_f64_scaled_graph(const t_arcs* a, double scale) {
  gsp_graph* g = NULL;
  double* wd = (double*)malloc((size_t)(a->m ? a->m : 1) * sizeof(double));
  int64_t k;
  gsp_status s;
  if (wd == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  for (k = 0; k < a->m; k++) wd[k] = (double)a->w[k] * scale;
  s = gsp_graph_create(&g, a->n, a->m, a->src, a->dst, wd, GSP_F64, 0);
  free(wd);
  if (s != GSP_OK) {
    fprintf(stderr, "t_f64_scaled_graph(%s): %s: %s\n", a->name, gsp_status_name(s), gsp_last_error());
    exit(2);
  }
  return g;
}

/* The absolute slack of a GSP_F64 comparison on g: n arcs of the largest
 * |w| at 2^-50 each (gsp.h: |d - sum| <= k 2^-51 sum|w|, for either side).
 * Matters only where negative arcs cancel (a distance near 0 made of
 * large terms); elsewhere the relative 1e-12 of t_f64_compare_row rules. */
T_FN double t_f64_slack(const gsp_graph* g) {
  const int32_t n = gsp_graph_num_vertices(g);
  const int64_t m = gsp_graph_num_edges(g);
  double* w = (double*)malloc((size_t)(m ? m : 1) * sizeof(double));
  double big = 0;
  int64_t k;
  if (w == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  if (gsp_graph_csr(g, NULL, NULL, w) == GSP_OK) {
    for (k = 0; k < m; k++)
      if (fabs(w[k]) > big) big = fabs(w[k]);
  }
  free(w);
  return (double)n * big * ldexp(1.0, -50);
}

/* Row src of a GPU result against the same row of the CPU engine's result
 * (both GSP_F64): both +inf, or within 1e-12 relative plus `slack`
 * (t_f64_slack). Returns the number of mismatches (up to 5 reported). */
T_FN int t_f64_compare_row(const gsp_paths* gpu, const gsp_paths* cpu, int32_t src, int32_t n, double slack,
                           const char* what) {
  double* a = (double*)malloc((size_t)n * sizeof(double));
  double* b = (double*)malloc((size_t)n * sizeof(double));
  int bad = 0;
  int32_t v;
  if (a == NULL || b == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  if (gsp_paths_distances(gpu, src, a, n) != GSP_OK || gsp_paths_distances(cpu, src, b, n) != GSP_OK) {
    fprintf(stderr, "%s: distances of row %d: %s\n", what, src, gsp_last_error());
    free(a);
    free(b);
    return 1;
  }
  for (v = 0; v < n; v++) {
    const int ok = (isinf(a[v]) && isinf(b[v]) && a[v] > 0 && b[v] > 0) ||
                   (isfinite(a[v]) && isfinite(b[v]) && fabs(a[v] - b[v]) <= 1e-12 * fabs(b[v]) + slack);
    if (!ok) {
      if (bad < 5) fprintf(stderr, "%s: d(%d,%d) = %.17g, the CPU engine %.17g\n", what, src, v, a[v], b[v]);
      bad++;
    }
  }
  free(a);
  free(b);
  return bad;
}

#endif
