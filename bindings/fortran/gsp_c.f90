! The raw layer of the Fortran binding: bind(c) interfaces to every function
! of include/gsp/gsp.h, the mirrored structs and the generated constants.
! Ids here are 0-based, as in C. Most programs want module gsp instead.
module gsp_c
  use, intrinsic :: iso_c_binding
  implicit none
  private
  include 'gsp_constants.inc'

  !> gsp_options; fill with gsp_options_init before use.
  type, bind(c), public :: gsp_options
    integer(c_int32_t) :: size = 0
    integer(c_int) :: backend = 0
    integer(c_int) :: algorithm = 0
    integer(c_int32_t) :: device = 0
    !> gsp_run_flags: GSP_NO_PATHS, GSP_ROWS_ANY_ORDER (gsp_apsp_stream's row blocks in any order), ior'ed
    integer(c_int32_t) :: flags = 0
    real(c_double) :: delta = 0
    integer(c_int32_t) :: num_threads = 0
    integer(c_size_t) :: device_memory_limit = 0
    type(c_ptr) :: cuda_stream = c_null_ptr
    type(c_funptr) :: progress = c_null_funptr
    type(c_ptr) :: progress_user = c_null_ptr
    !> distance limit (gsp_search.h); gsp_options_init sets +Infinity: none
    real(c_double) :: limit = huge(0.0_c_double)
    !> CUDA devices a run may use, from device upward: 0 (default) lets AUTO choose,
    !> 1 only device, k >= 2 exactly device .. device + k - 1 (not with cuda_stream)
    integer(c_int32_t) :: num_devices = 0
    !> a road index of the run's graph (gsp_index.h; module gsp: gsp_set_index): with algorithm
    !> GSP_ALGO_AUTO or GSP_CH the run answers from it; c_null_ptr (default): none
    type(c_ptr) :: index = c_null_ptr
  end type

  !> gsp_run_info; set size = c_sizeof(info) before gsp_paths_info.
  type, bind(c), public :: gsp_run_info
    integer(c_int32_t) :: size = 0
    integer(c_int) :: backend = 0
    integer(c_int) :: algorithm = 0
    integer(c_int) :: weight_type = 0
    integer(c_int32_t) :: num_vertices = 0
    integer(c_int32_t) :: num_sources = 0
    integer(c_int32_t) :: device = 0
    character(kind=c_char) :: device_name(128) = c_null_char
    real(c_double) :: seconds = 0
    real(c_double) :: upload_seconds = 0
    integer(c_int64_t) :: iterations = 0
    integer(c_int64_t) :: relaxations = 0
    integer(c_int32_t) :: has_paths = 0
    ! stages (doc/run-info.md): disjoint parts of seconds, 0 where the engine does not measure one
    real(c_double) :: setup_seconds = 0    ! allocation and initialisation
    real(c_double) :: compute_seconds = 0  ! the search or the matrix steps, with any copies they overlap
    real(c_double) :: copy_seconds = 0     ! results into host memory
    real(c_double) :: paths_seconds = 0    ! a separate predecessor pass or repair
    integer(c_int32_t) :: num_devices = 0  ! CUDA devices the run used (0 on the CPU)
  end type

  public :: gsp_version, gsp_status_name, gsp_last_error, gsp_graph_create, gsp_graph_create_csr, &
            gsp_graph_load, gsp_graph_save, gsp_graph_destroy, gsp_graph_num_vertices, gsp_graph_num_edges, &
            gsp_graph_weight_type, gsp_graph_csr, gsp_options_init, gsp_sssp_run, gsp_apsp_run, gsp_apsp_stream, &
            gsp_paths_num_sources, gsp_paths_source, gsp_paths_distances, gsp_paths_distance, &
            gsp_paths_predecessors, gsp_path_get, gsp_paths_info, gsp_paths_destroy, gsp_table_run, &
            gsp_table_run_into, gsp_table_size, gsp_table_distances, gsp_table_distance, gsp_table_path, &
            gsp_table_info, gsp_table_destroy, gsp_nearest_run, gsp_backend_available, &
            gsp_device_count, gsp_device_start, gsp_release_cached_memory, gsp_backend_name, gsp_algorithm_name, &
            gsp_algorithm_from_name, gsp_algorithm_kind, gsp_index_build, gsp_index_size, gsp_index_save, gsp_index_load, &
            gsp_index_destroy

  interface
    integer(c_int32_t) function gsp_version() bind(c, name="gsp_version")
      import :: c_int32_t
    end function
    type(c_ptr) function gsp_status_name(status) bind(c, name="gsp_status_name")
      import :: c_ptr, c_int
      integer(c_int), value :: status
    end function
    type(c_ptr) function gsp_last_error() bind(c, name="gsp_last_error")
      import :: c_ptr
    end function
    integer(c_int) function gsp_graph_create(graph, n, m, sources, targets, weights, weight_type, flags) &
        bind(c, name="gsp_graph_create")
      import :: c_ptr, c_int, c_int32_t, c_int64_t
      type(c_ptr), intent(out) :: graph
      integer(c_int32_t), value :: n
      integer(c_int64_t), value :: m
      type(c_ptr), value :: sources, targets, weights
      integer(c_int), value :: weight_type
      integer(c_int32_t), value :: flags
    end function
    integer(c_int) function gsp_graph_create_csr(graph, n, offsets, targets, weights, weight_type, flags) &
        bind(c, name="gsp_graph_create_csr")
      import :: c_ptr, c_int, c_int32_t
      type(c_ptr), intent(out) :: graph
      integer(c_int32_t), value :: n
      type(c_ptr), value :: offsets, targets, weights
      integer(c_int), value :: weight_type
      integer(c_int32_t), value :: flags
    end function
    integer(c_int) function gsp_graph_load(graph, path, format, weight_type, flags) bind(c, name="gsp_graph_load")
      import :: c_ptr, c_int, c_int32_t, c_char
      type(c_ptr), intent(out) :: graph
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int), value :: format, weight_type
      integer(c_int32_t), value :: flags
    end function
    integer(c_int) function gsp_graph_save(graph, path, format) bind(c, name="gsp_graph_save")
      import :: c_ptr, c_int, c_char
      type(c_ptr), value :: graph
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int), value :: format
    end function
    subroutine gsp_graph_destroy(graph) bind(c, name="gsp_graph_destroy")
      import :: c_ptr
      type(c_ptr), value :: graph
    end subroutine
    integer(c_int32_t) function gsp_graph_num_vertices(graph) bind(c, name="gsp_graph_num_vertices")
      import :: c_ptr, c_int32_t
      type(c_ptr), value :: graph
    end function
    integer(c_int64_t) function gsp_graph_num_edges(graph) bind(c, name="gsp_graph_num_edges")
      import :: c_ptr, c_int64_t
      type(c_ptr), value :: graph
    end function
    integer(c_int) function gsp_graph_weight_type(graph) bind(c, name="gsp_graph_weight_type")
      import :: c_ptr, c_int
      type(c_ptr), value :: graph
    end function
    integer(c_int) function gsp_graph_csr(graph, offsets, targets, weights) bind(c, name="gsp_graph_csr")
      import :: c_ptr, c_int
      type(c_ptr), value :: graph, offsets, targets, weights
    end function
    subroutine gsp_options_init_sized(options, size) bind(c, name="gsp_options_init_sized")
      import :: gsp_options, c_size_t
      type(gsp_options), intent(inout) :: options
      integer(c_size_t), value :: size
    end subroutine
    integer(c_int) function gsp_sssp_run(graph, source, options, result) bind(c, name="gsp_sssp_run")
      import :: c_ptr, c_int, c_int32_t, gsp_options
      type(c_ptr), value :: graph
      integer(c_int32_t), value :: source
      type(gsp_options), intent(in) :: options
      type(c_ptr), intent(out) :: result
    end function
    integer(c_int) function gsp_apsp_run(graph, sources, num_sources, options, result) bind(c, name="gsp_apsp_run")
      import :: c_ptr, c_int, c_int32_t, gsp_options
      type(c_ptr), value :: graph, sources
      integer(c_int32_t), value :: num_sources
      type(gsp_options), intent(in) :: options
      type(c_ptr), intent(out) :: result
    end function
    integer(c_int) function gsp_apsp_stream(graph, sources, num_sources, options, on_rows, user) &
        bind(c, name="gsp_apsp_stream")
      import :: c_ptr, c_funptr, c_int, c_int32_t, gsp_options
      type(c_ptr), value :: graph, sources
      integer(c_int32_t), value :: num_sources
      type(gsp_options), intent(in) :: options
      type(c_funptr), value :: on_rows
      type(c_ptr), value :: user
    end function
    integer(c_int32_t) function gsp_paths_num_sources(paths) bind(c, name="gsp_paths_num_sources")
      import :: c_ptr, c_int32_t
      type(c_ptr), value :: paths
    end function
    integer(c_int32_t) function gsp_paths_source(paths, index) bind(c, name="gsp_paths_source")
      import :: c_ptr, c_int32_t
      type(c_ptr), value :: paths
      integer(c_int32_t), value :: index
    end function
    integer(c_int) function gsp_paths_distances(paths, source, out, capacity) bind(c, name="gsp_paths_distances")
      import :: c_ptr, c_int, c_int32_t, c_int64_t
      type(c_ptr), value :: paths, out
      integer(c_int32_t), value :: source
      integer(c_int64_t), value :: capacity
    end function
    integer(c_int) function gsp_paths_distance(paths, source, target, out) bind(c, name="gsp_paths_distance")
      import :: c_ptr, c_int, c_int32_t
      type(c_ptr), value :: paths, out
      integer(c_int32_t), value :: source, target
    end function
    integer(c_int) function gsp_paths_predecessors(paths, source, out, capacity) bind(c, name="gsp_paths_predecessors")
      import :: c_ptr, c_int, c_int32_t, c_int64_t
      type(c_ptr), value :: paths, out
      integer(c_int32_t), value :: source
      integer(c_int64_t), value :: capacity
    end function
    integer(c_int) function gsp_path_get(paths, source, target, vertices, capacity, length) bind(c, name="gsp_path_get")
      import :: c_ptr, c_int, c_int32_t
      type(c_ptr), value :: paths, vertices
      integer(c_int32_t), value :: source, target, capacity
      integer(c_int32_t), intent(out) :: length
    end function
    integer(c_int) function gsp_paths_info(paths, info) bind(c, name="gsp_paths_info")
      import :: c_ptr, c_int, gsp_run_info
      type(c_ptr), value :: paths
      type(gsp_run_info), intent(inout) :: info
    end function
    subroutine gsp_paths_destroy(paths) bind(c, name="gsp_paths_destroy")
      import :: c_ptr
      type(c_ptr), value :: paths
    end subroutine
    integer(c_int) function gsp_table_run(graph, sources, num_sources, targets, num_targets, options, result) &
        bind(c, name="gsp_table_run")
      import :: c_ptr, c_int, c_int32_t, gsp_options
      type(c_ptr), value :: graph, sources, targets
      integer(c_int32_t), value :: num_sources, num_targets
      type(gsp_options), intent(in) :: options
      type(c_ptr), intent(out) :: result
    end function
    !> distances: K x T values, row-major (row i from sources[i]); info: a
    !> gsp_run_info (c_loc, size set) or c_null_ptr.
    integer(c_int) function gsp_table_run_into(graph, sources, num_sources, targets, num_targets, options, &
        distances, info) bind(c, name="gsp_table_run_into")
      import :: c_ptr, c_int, c_int32_t, gsp_options
      type(c_ptr), value :: graph, sources, targets, distances, info
      integer(c_int32_t), value :: num_sources, num_targets
      type(gsp_options), intent(in) :: options
    end function
    integer(c_int) function gsp_table_size(table, num_sources, num_targets) bind(c, name="gsp_table_size")
      import :: c_ptr, c_int, c_int32_t
      type(c_ptr), value :: table
      integer(c_int32_t), intent(out) :: num_sources, num_targets
    end function
    integer(c_int) function gsp_table_distances(table, out, capacity) bind(c, name="gsp_table_distances")
      import :: c_ptr, c_int, c_int64_t
      type(c_ptr), value :: table, out
      integer(c_int64_t), value :: capacity
    end function
    integer(c_int) function gsp_table_distance(table, source_index, target_index, out) &
        bind(c, name="gsp_table_distance")
      import :: c_ptr, c_int, c_int32_t
      type(c_ptr), value :: table, out
      integer(c_int32_t), value :: source_index, target_index
    end function
    integer(c_int) function gsp_table_path(table, source_index, target_index, vertices, capacity, length) &
        bind(c, name="gsp_table_path")
      import :: c_ptr, c_int, c_int32_t
      type(c_ptr), value :: table, vertices
      integer(c_int32_t), value :: source_index, target_index, capacity
      integer(c_int32_t), intent(out) :: length
    end function
    integer(c_int) function gsp_table_info(table, info) bind(c, name="gsp_table_info")
      import :: c_ptr, c_int, gsp_run_info
      type(c_ptr), value :: table
      type(gsp_run_info), intent(inout) :: info
    end function
    subroutine gsp_table_destroy(table) bind(c, name="gsp_table_destroy")
      import :: c_ptr
      type(c_ptr), value :: table
    end subroutine
    !> gsp_search.h. distances: n values of the graph's weight type; nearest,
    !> predecessors: n ids (0-based, -1: none), or c_null_ptr.
    integer(c_int) function gsp_nearest_run(graph, sources, num_sources, options, distances, nearest, &
        predecessors) bind(c, name="gsp_nearest_run")
      import :: c_ptr, c_int, c_int32_t, gsp_options
      type(c_ptr), value :: graph, sources, distances, nearest, predecessors
      integer(c_int32_t), value :: num_sources
      type(gsp_options), intent(in) :: options
    end function
    !> gsp_index.h. info: a gsp_run_info (c_loc, size set) or c_null_ptr.
    integer(c_int) function gsp_index_build(graph, options, index, info) bind(c, name="gsp_index_build")
      import :: c_ptr, c_int, gsp_options
      type(c_ptr), value :: graph, info
      type(gsp_options), intent(in) :: options
      type(c_ptr), intent(out) :: index
    end function
    integer(c_int) function gsp_index_size(index, num_vertices, num_arcs, num_shortcuts) &
        bind(c, name="gsp_index_size")
      import :: c_ptr, c_int, c_int32_t, c_int64_t
      type(c_ptr), value :: index
      integer(c_int32_t), intent(out) :: num_vertices
      integer(c_int64_t), intent(out) :: num_arcs, num_shortcuts
    end function
    integer(c_int) function gsp_index_save(index, path) bind(c, name="gsp_index_save")
      import :: c_ptr, c_int, c_char
      type(c_ptr), value :: index
      character(kind=c_char), intent(in) :: path(*)
    end function
    integer(c_int) function gsp_index_load(graph, path, index) bind(c, name="gsp_index_load")
      import :: c_ptr, c_int, c_char
      type(c_ptr), value :: graph
      character(kind=c_char), intent(in) :: path(*)
      type(c_ptr), intent(out) :: index
    end function
    subroutine gsp_index_destroy(index) bind(c, name="gsp_index_destroy")
      import :: c_ptr
      type(c_ptr), value :: index
    end subroutine
    integer(c_int) function gsp_backend_available(backend) bind(c, name="gsp_backend_available")
      import :: c_int
      integer(c_int), value :: backend
    end function
    integer(c_int32_t) function gsp_device_count() bind(c, name="gsp_device_count")
      import :: c_int32_t
    end function
    integer(c_int) function gsp_device_start(device) bind(c, name="gsp_device_start")
      import :: c_int, c_int32_t
      integer(c_int32_t), value :: device
    end function
    subroutine gsp_release_cached_memory() bind(c, name="gsp_release_cached_memory")
    end subroutine
    type(c_ptr) function gsp_backend_name(backend) bind(c, name="gsp_backend_name")
      import :: c_ptr, c_int
      integer(c_int), value :: backend
    end function
    type(c_ptr) function gsp_algorithm_name(algorithm) bind(c, name="gsp_algorithm_name")
      import :: c_ptr, c_int
      integer(c_int), value :: algorithm
    end function
    integer(c_int) function gsp_algorithm_from_name(name, out) bind(c, name="gsp_algorithm_from_name")
      import :: c_int, c_char
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), intent(out) :: out
    end function
    integer(c_int) function gsp_algorithm_kind(algorithm) bind(c, name="gsp_algorithm_kind")
      import :: c_int
      integer(c_int), value :: algorithm
    end function
  end interface

contains

  !> Fills options with the defaults, exactly this module's struct (libgsp's
  !> header passes its own sizeof; the C function gsp_options_init fills
  !> libgsp 0.1's smaller struct).
  subroutine gsp_options_init(options)
    type(gsp_options), intent(inout) :: options
    call gsp_options_init_sized(options, c_sizeof(options))
  end subroutine
end module gsp_c
