/* Each part of the public header (gsp_algorithms.h, gsp_options.h, gsp_table.h, gsp_device.h,
 * gsp_search.h, gsp_index.h) compiles on its
 * own, as pedantic C99 and C++: included first, it brings gsp.h; after it,
 * gsp.h adds nothing twice. Users include <gsp/gsp.h>, which includes both. */
#include <gsp/gsp_algorithms.h>
#include <gsp/gsp_options.h>
#include <gsp/gsp_table.h>
#include <gsp/gsp_device.h>
#include <gsp/gsp_search.h>
#include <gsp/gsp_index.h>
#include <gsp/gsp.h>
#include <gsp/gsp_table.h>

int main(void) {
  gsp_run_info info;
  gsp_table_destroy(NULL);
  info.size = 0;
  return (int)(gsp_table_info(NULL, &info) != GSP_ERR_INVALID_ARGUMENT) +
         (gsp_backend_available(GSP_BACKEND_CPU) != 1) +
         (gsp_nearest_run(NULL, NULL, 0, NULL, NULL, NULL, NULL) != GSP_ERR_INVALID_ARGUMENT) +
         (gsp_index_build(NULL, NULL, NULL, NULL) != GSP_ERR_INVALID_ARGUMENT) +
         (gsp_algorithm_kind(GSP_SSSP_DIJKSTRA) != GSP_KIND_SSSP);
}
