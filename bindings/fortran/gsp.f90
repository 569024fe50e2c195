! module gsp: the Fortran binding of libgsp.
!
! Derived types gsp_graph_t, gsp_paths_t, gsp_table_t and gsp_index_t hold
! a private c_ptr; free them with gsp_destroy. Vertex ids are 1-based here (converted
! at the boundary; a predecessor of 0 means none), and so are a table's
! cell indices. Options are the bind(c) type gsp_options,
! filled by gsp_options_init (module gsp_c, re-exported here).
!
! Every fallible routine takes an optional integer "stat": with it, failures
! set it to a GSP_ERR_* value (GSP_OK on success) and gsp_error_message()
! says why; without it, a failure stops the program with the message. The
! library's messages keep its 0-based vertex ids and say so in a note.
! A destroyed handle is refused (GSP_ERR_INVALID_ARGUMENT), never used.
!
! The module is assembled from modules by concern, whose public names it
! re-exports: gsp_common (names, errors, devices), gsp_graphs (gsp_graph_t,
! and road indexes: gsp_index_t, gsp_index_create, gsp_set_index),
! gsp_results (gsp_sssp, gsp_apsp, gsp_paths_t), gsp_tables (gsp_table,
! gsp_table_t), gsp_search (gsp_nearest). Weights and distances are
! real(c_float), integer(c_int32_t) or real(c_double) (GSP_F32, GSP_I32,
! GSP_F64): the generic routines pick by the kind of the array. The constants are generated from gsp.h (gsp_constants.inc,
! and gsp_public.inc, which makes each of them public here).
module gsp
  use, intrinsic :: iso_c_binding
  use gsp_c
  use gsp_common
  use gsp_graphs
  use gsp_results
  use gsp_tables
  use gsp_search
  implicit none
  private

  ! Re-export the raw layer's types and constants.
  public :: gsp_options, gsp_run_info, gsp_options_init
  include 'gsp_public.inc'

  public :: gsp_graph_t, gsp_paths_t, gsp_table_t, gsp_index_t
  public :: gsp_version_string, gsp_status_string, gsp_error_message, gsp_backend_is_available, &
            gsp_num_devices, gsp_free_cached_memory, gsp_backend_string, gsp_algorithm_string, gsp_algorithm_lookup, &
            gsp_kind_of, gsp_algorithms, gsp_graph_from_arcs, gsp_graph_from_csr, gsp_graph_read, gsp_graph_write, gsp_destroy, &
            gsp_num_vertices, gsp_num_edges, gsp_weight_type, gsp_sssp, gsp_apsp, gsp_num_sources, &
            gsp_source, gsp_distances, gsp_distance, gsp_predecessors, gsp_path, gsp_info, gsp_device_name, &
            gsp_is_valid, gsp_table, gsp_num_targets, gsp_nearest, gsp_index_create, gsp_index_read, &
            gsp_index_write, gsp_index_sizes, gsp_set_index
end module gsp
