/* README's example: build a small road network, run SSSP, print a path. */
#include <gsp/gsp.h>
#include <stdio.h>

int main(void) {
  const int32_t from[] = {0, 0, 1, 2, 1, 3};
  const int32_t to[] = {1, 2, 2, 3, 3, 4};
  const float km[] = {4.0f, 1.0f, 2.0f, 5.0f, 10.0f, 3.0f};
  gsp_graph* g = NULL;
  gsp_paths* p = NULL;
  int32_t path[5], len = 0, i;
  float d = 0;
  if (gsp_graph_create(&g, 5, 6, from, to, km, GSP_F32, 0) != GSP_OK ||
      gsp_sssp_run(g, 0, NULL, &p) != GSP_OK || /* NULL: default options */
      gsp_path_get(p, 0, 4, path, 5, &len) != GSP_OK) {
    fprintf(stderr, "libgsp: %s\n", gsp_last_error());
    return 1;
  }
  gsp_paths_distance(p, 0, 4, &d);
  printf("distance 0 -> 4: %g\npath:", d);
  for (i = 0; i < len; i++) printf(" %d", path[i]);
  printf("\n");
  gsp_paths_destroy(p);
  gsp_graph_destroy(g);
  return 0;
}
