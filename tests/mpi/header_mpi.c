/* gsp_mpi.h compiles as pedantic C99, included twice, with gsp.h before or
 * after it; the symbols it declares link from libgsp_mpi.a alone. */
#include "gsp/gsp_mpi.h"
#include "gsp/gsp.h"
#include "gsp/gsp_mpi.h"

#include <stdio.h>

int main(void) {
  gsp_mpi_layout layout;
  typedef void (*fn)(void);
  fn fns[] = {(fn)gsp_apsp_run_mpi,       (fn)gsp_apsp_run_mpi_blocks, (fn)gsp_mpi_blocks_layout,
              (fn)gsp_mpi_blocks_range,   (fn)gsp_mpi_blocks_copy,     (fn)gsp_mpi_blocks_info,
              (fn)gsp_mpi_blocks_destroy, (fn)gsp_graph_create};
  layout.size = sizeof layout;
  gsp_mpi_blocks_destroy(NULL);
  printf("gsp_mpi.h: %u functions, layout %u bytes, blocks_layout(NULL) -> %s\n",
         (unsigned)(sizeof fns / sizeof fns[0]), (unsigned)layout.size,
         gsp_status_name(gsp_mpi_blocks_layout(NULL, &layout)));
  return fns[0] != NULL ? 0 : 1;
}
