/* Distributed APSP: rank 0 owns the graph, every rank takes part, rank 0
 * gets the result and prints a path. Run: mpirun -np 4 ./mpi_example */
#include <gsp/gsp_mpi.h>
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  const int32_t from[] = {0, 1, 2, 3, 4, 0};
  const int32_t to[] = {1, 2, 3, 4, 5, 5};
  const int32_t w[] = {1, 1, 1, 1, 1, 9};
  gsp_graph* g = NULL;
  gsp_paths* p = NULL;
  int rank, rc = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  /* Devices and their NCCL groups made while rank 0 builds the graph
   * (optional: a quicker first call on GPU ranks; nothing on CPU ranks). */
  gsp_mpi_prepare(MPI_COMM_WORLD, NULL, 0);
  if (rank == 0 && gsp_graph_create(&g, 6, 6, from, to, w, GSP_I32, 0) != GSP_OK) rc = 1;
  if (gsp_apsp_run_mpi(MPI_COMM_WORLD, g, NULL, rank == 0 ? &p : NULL) != GSP_OK) {
    fprintf(stderr, "rank %d: %s\n", rank, gsp_last_error());
    rc = 1;
  } else if (rank == 0) {
    int32_t path[6], len = 0, i;
    gsp_path_get(p, 0, 5, path, 6, &len);
    printf("path:");
    for (i = 0; i < len; i++) printf(" %d", path[i]);
    printf("\n");
  }
  gsp_paths_destroy(p);
  gsp_graph_destroy(g);
  MPI_Finalize();
  return rc;
}
