! module gsp: the Fortran binding of libgsp.
!
! Derived types gsp_graph_t, gsp_paths_t and gsp_table_t hold a private
! c_ptr; free them with gsp_destroy. Vertex ids are 1-based here (converted
! at the boundary; a predecessor of 0 means none), and so are a table's
! cell indices. Options are the bind(c) type gsp_options,
! filled by gsp_options_init (module gsp_c, re-exported here).
!
! Every fallible routine takes an optional integer "stat": with it, failures
! set it to a GSP_ERR_* value (GSP_OK on success) and gsp_error_message()
! says why; without it, a failure stops the program with the message. The
! library's messages keep its 0-based vertex ids and say so in a note.
! A destroyed handle is refused (GSP_ERR_INVALID_ARGUMENT), never used.
module gsp
  use, intrinsic :: iso_c_binding
  use gsp_c
  implicit none
  private

  ! Re-export the raw layer's types and constants (see gsp_constants.inc).
  public :: gsp_options, gsp_run_info, gsp_options_init
  public :: GSP_VERSION_MAJOR, GSP_VERSION_MINOR, GSP_VERSION_PATCH
  public :: GSP_OK, GSP_ERR_INVALID_ARGUMENT, GSP_ERR_INVALID_GRAPH, GSP_ERR_NEGATIVE_WEIGHT, &
            GSP_ERR_NEGATIVE_CYCLE, GSP_ERR_OVERFLOW, GSP_ERR_NO_PATH, GSP_ERR_BUFFER_TOO_SMALL, &
            GSP_ERR_OUT_OF_MEMORY, GSP_ERR_DEVICE_OUT_OF_MEMORY, GSP_ERR_NO_DEVICE, GSP_ERR_DEVICE, &
            GSP_ERR_UNSUPPORTED, GSP_ERR_IO, GSP_ERR_PARSE, GSP_ERR_CANCELLED, GSP_ERR_INTERNAL
  public :: GSP_F32, GSP_I32, GSP_I32_INF, GSP_GRAPH_UNDIRECTED, GSP_FORMAT_AUTO, GSP_FORMAT_DIMACS, &
            GSP_FORMAT_MATRIX_MARKET, GSP_FORMAT_EDGE_LIST, GSP_BACKEND_AUTO, GSP_BACKEND_CPU, GSP_BACKEND_CUDA, &
            GSP_ALGO_AUTO, GSP_SSSP_DIJKSTRA, GSP_SSSP_BELLMAN_FORD, GSP_SSSP_DELTA_STEPPING, GSP_SSSP_ATOMIC_LOCK, &
            GSP_SSSP_HARISH, GSP_SSSP_SPMV_CSR, GSP_SSSP_SPMV_ELL, GSP_SSSP_GPU_DIJKSTRA, GSP_APSP_FLOYD_WARSHALL, &
            GSP_APSP_MINPLUS, GSP_APSP_HEAP, GSP_APSP_TASK_PARALLEL, GSP_APSP_JOHNSON, GSP_SSSP_ATOMIC_64, GSP_NO_PATHS

  type, public :: gsp_graph_t
    private
    type(c_ptr) :: p = c_null_ptr
  end type
  type, public :: gsp_paths_t
    private
    type(c_ptr) :: p = c_null_ptr
    integer(c_int32_t) :: n = 0
    integer(c_int) :: wt = 0
  end type
  !> A many-to-many table: cell (i, j) is from sources(i) to targets(j).
  type, public :: gsp_table_t
    private
    type(c_ptr) :: p = c_null_ptr
    integer(c_int32_t) :: k = 0, t = 0
    integer(c_int) :: wt = 0
  end type

  public :: gsp_version_string, gsp_status_string, gsp_error_message, gsp_backend_is_available, &
            gsp_num_devices, gsp_free_cached_memory, gsp_backend_string, gsp_algorithm_string, gsp_algorithm_lookup, &
            gsp_graph_from_arcs, gsp_graph_from_csr, gsp_graph_read, gsp_graph_write, gsp_destroy, &
            gsp_num_vertices, gsp_num_edges, gsp_weight_type, gsp_sssp, gsp_apsp, gsp_num_sources, &
            gsp_source, gsp_distances, gsp_distance, gsp_predecessors, gsp_path, gsp_info, gsp_device_name, &
            gsp_is_valid, gsp_table, gsp_num_targets

  interface gsp_graph_from_arcs
    module procedure from_arcs_f32, from_arcs_i32, from_arcs_unit
  end interface
  interface gsp_graph_from_csr
    module procedure from_csr_f32, from_csr_i32
  end interface
  interface gsp_destroy
    module procedure destroy_graph, destroy_paths, destroy_table
  end interface
  interface gsp_is_valid
    module procedure valid_graph, valid_paths, valid_table
  end interface
  interface gsp_distances
    module procedure distances_f32, distances_i32, table_distances_f32, table_distances_i32
  end interface
  interface gsp_distance
    module procedure distance_f32, distance_i32, table_distance_f32, table_distance_i32
  end interface
  interface gsp_path
    module procedure path_paths, path_table
  end interface
  interface gsp_info
    module procedure info_paths, info_table
  end interface
  interface gsp_num_sources
    module procedure num_sources_paths, num_sources_table
  end interface

  ! A failure detected here (not by libgsp): its message.
  character(len=:), allocatable :: local_message
  logical :: local_failure = .false.

contains

  ! ------------------------------------------------------------ helpers
  function c_string(p) result(s)
    type(c_ptr), intent(in) :: p
    character(len=:), allocatable :: s
    character(kind=c_char), pointer :: a(:)
    integer :: n
    interface
      integer(c_size_t) function strlen(x) bind(c, name="strlen")
        import :: c_ptr, c_size_t
        type(c_ptr), value :: x
      end function
    end interface
    if (.not. c_associated(p)) then
      s = ""
      return
    end if
    n = int(strlen(p))
    call c_f_pointer(p, a, [n])
    allocate(character(len=n) :: s)
    s = transfer(a(1:n), s)
  end function

  pure function to_c(s) result(c)
    character(len=*), intent(in) :: s
    character(kind=c_char) :: c(len(s) + 1)
    integer :: i
    do i = 1, len(s)
      c(i) = s(i:i)
    end do
    c(len(s) + 1) = c_null_char
  end function

  ! Reports a status: to stat when present, else stops on failure.
  subroutine finish(st, stat, where)
    integer(c_int), intent(in) :: st
    integer, intent(out), optional :: stat
    character(len=*), intent(in) :: where
    if (st /= GSP_OK) local_failure = .false.
    call report(st, stat, where)
  end subroutine

  subroutine refuse(stat, where, why)
    integer, intent(out), optional :: stat
    character(len=*), intent(in) :: where, why
    local_failure = .true.
    local_message = why
    call report(GSP_ERR_INVALID_ARGUMENT, stat, where)
  end subroutine

  subroutine report(st, stat, where)
    integer(c_int), intent(in) :: st
    integer, intent(out), optional :: stat
    character(len=*), intent(in) :: where
    character(len=:), allocatable :: msg
    if (present(stat)) then
      stat = st
    else if (st /= GSP_OK) then
      msg = "gsp: " // where // ": " // gsp_status_string(st) // ": " // gsp_error_message()
      error stop msg
    end if
  end subroutine

  ! ------------------------------------------------------------ library
  function gsp_version_string() result(s)
    character(len=:), allocatable :: s
    character(len=32) :: buf
    integer :: v
    v = int(gsp_version())
    write(buf, '(i0,".",i0,".",i0)') ishft(v, -16), iand(ishft(v, -8), 255), iand(v, 255)
    s = trim(buf)
  end function

  function gsp_status_string(status) result(s)
    integer, intent(in) :: status
    character(len=:), allocatable :: s
    s = c_string(gsp_status_name(int(status, c_int)))
  end function

  !> Why the last failing call of this thread failed. The library's own
  !> messages name vertices by their C (0-based) ids: such a message ends with
  !> a note saying so (Fortran id = C id + 1); this layer's own messages use
  !> 1-based ids.
  function gsp_error_message() result(s)
    character(len=:), allocatable :: s
    if (local_failure) then
      s = local_message
    else
      s = c_string(gsp_last_error())
      if (scan(s, "0123456789") > 0) s = s // " [ids in this libgsp message are 0-based: Fortran id = id + 1]"
    end if
  end function

  logical function gsp_backend_is_available(backend)
    integer, intent(in) :: backend
    gsp_backend_is_available = gsp_backend_available(int(backend, c_int)) /= 0
  end function

  integer function gsp_num_devices()
    gsp_num_devices = int(gsp_device_count())
  end function

  !> Gives back memory libgsp keeps between runs (device pools, pinned buffers).
  subroutine gsp_free_cached_memory()
    call gsp_release_cached_memory()
  end subroutine

  function gsp_backend_string(backend) result(s)
    integer, intent(in) :: backend
    character(len=:), allocatable :: s
    s = c_string(gsp_backend_name(int(backend, c_int)))
  end function

  function gsp_algorithm_string(algorithm) result(s)
    integer, intent(in) :: algorithm
    character(len=:), allocatable :: s
    s = c_string(gsp_algorithm_name(int(algorithm, c_int)))
  end function

  integer function gsp_algorithm_lookup(name, stat) result(algo)
    character(len=*), intent(in) :: name
    integer, intent(out), optional :: stat
    integer(c_int) :: out
    out = 0
    call finish(gsp_algorithm_from_name(to_c(name), out), stat, "gsp_algorithm_lookup")
    algo = int(out)
  end function

  ! ------------------------------------------------------------ graphs
  subroutine from_arcs_common(g, n, src, dst, w, wt, flags, stat)
    type(gsp_graph_t), intent(out) :: g
    integer, intent(in) :: n
    integer, intent(in) :: src(:), dst(:)
    type(c_ptr), intent(in) :: w
    integer(c_int), intent(in) :: wt
    integer, intent(in), optional :: flags
    integer, intent(out), optional :: stat
    integer(c_int32_t), allocatable, target :: s0(:), d0(:)
    integer(c_int32_t) :: f
    if (size(src) /= size(dst)) then
      call refuse(stat, "gsp_graph_from_arcs", "sources and targets differ in length")
      return
    end if
    f = 0
    if (present(flags)) f = int(flags, c_int32_t)
    allocate(s0(max(size(src), 1)), d0(max(size(dst), 1)))
    s0(1:size(src)) = int(src, c_int32_t) - 1
    d0(1:size(dst)) = int(dst, c_int32_t) - 1
    call finish(gsp_graph_create(g%p, int(n, c_int32_t), int(size(src), c_int64_t), c_loc(s0), c_loc(d0), &
                                 w, wt, f), stat, "gsp_graph_from_arcs")
  end subroutine

  !> A graph from arcs src(i) -> dst(i) (1-based) with real(c_float) weights.
  subroutine from_arcs_f32(g, n, src, dst, weights, flags, stat)
    type(gsp_graph_t), intent(out) :: g
    integer, intent(in) :: n, src(:), dst(:)
    real(c_float), intent(in), target, contiguous :: weights(:)
    integer, intent(in), optional :: flags
    integer, intent(out), optional :: stat
    if (size(weights) /= size(src)) then
      call refuse(stat, "gsp_graph_from_arcs", "weights and arcs differ in number")
      return
    end if
    call from_arcs_common(g, n, src, dst, merge(c_loc(weights), c_null_ptr, size(weights) > 0), GSP_F32, flags, stat)
  end subroutine

  !> A graph from arcs with integer(c_int32_t) weights.
  subroutine from_arcs_i32(g, n, src, dst, weights, flags, stat)
    type(gsp_graph_t), intent(out) :: g
    integer, intent(in) :: n, src(:), dst(:)
    integer(c_int32_t), intent(in), target, contiguous :: weights(:)
    integer, intent(in), optional :: flags
    integer, intent(out), optional :: stat
    if (size(weights) /= size(src)) then
      call refuse(stat, "gsp_graph_from_arcs", "weights and arcs differ in number")
      return
    end if
    call from_arcs_common(g, n, src, dst, merge(c_loc(weights), c_null_ptr, size(weights) > 0), GSP_I32, flags, stat)
  end subroutine

  !> A graph from arcs with every weight 1, of type weight_type (GSP_F32 or GSP_I32).
  subroutine from_arcs_unit(g, n, src, dst, weight_type, flags, stat)
    type(gsp_graph_t), intent(out) :: g
    integer, intent(in) :: n, src(:), dst(:), weight_type
    integer, intent(in), optional :: flags
    integer, intent(out), optional :: stat
    call from_arcs_common(g, n, src, dst, c_null_ptr, int(weight_type, c_int), flags, stat)
  end subroutine

  subroutine from_csr_common(g, n, offsets, targets, w, wt, flags, stat)
    type(gsp_graph_t), intent(out) :: g
    integer, intent(in) :: n, offsets(:), targets(:)
    type(c_ptr), intent(in) :: w
    integer(c_int), intent(in) :: wt
    integer, intent(in), optional :: flags
    integer, intent(out), optional :: stat
    integer(c_int64_t), allocatable, target :: o0(:)
    integer(c_int32_t), allocatable, target :: t0(:)
    integer(c_int32_t) :: f
    if (size(offsets) /= n + 1) then
      call refuse(stat, "gsp_graph_from_csr", "offsets must hold n + 1 values")
      return
    end if
    f = 0
    if (present(flags)) f = int(flags, c_int32_t)
    allocate(o0(n + 1), t0(max(size(targets), 1)))
    o0 = int(offsets, c_int64_t) - 1
    t0(1:size(targets)) = int(targets, c_int32_t) - 1
    call finish(gsp_graph_create_csr(g%p, int(n, c_int32_t), c_loc(o0), c_loc(t0), w, wt, f), &
                stat, "gsp_graph_from_csr")
  end subroutine

  !> A graph from Fortran-style CSR: offsets(1) = 1, offsets(n+1) = m + 1;
  !> the arcs of vertex v are targets(offsets(v) : offsets(v+1) - 1) (1-based).
  subroutine from_csr_f32(g, n, offsets, targets, weights, flags, stat)
    type(gsp_graph_t), intent(out) :: g
    integer, intent(in) :: n, offsets(:), targets(:)
    real(c_float), intent(in), target, contiguous :: weights(:)
    integer, intent(in), optional :: flags
    integer, intent(out), optional :: stat
    call from_csr_common(g, n, offsets, targets, merge(c_loc(weights), c_null_ptr, size(weights) > 0), &
                         GSP_F32, flags, stat)
  end subroutine

  subroutine from_csr_i32(g, n, offsets, targets, weights, flags, stat)
    type(gsp_graph_t), intent(out) :: g
    integer, intent(in) :: n, offsets(:), targets(:)
    integer(c_int32_t), intent(in), target, contiguous :: weights(:)
    integer, intent(in), optional :: flags
    integer, intent(out), optional :: stat
    call from_csr_common(g, n, offsets, targets, merge(c_loc(weights), c_null_ptr, size(weights) > 0), &
                         GSP_I32, flags, stat)
  end subroutine

  !> Reads a DIMACS, Matrix Market or edge-list file.
  subroutine gsp_graph_read(g, path, format, weight_type, flags, stat)
    type(gsp_graph_t), intent(out) :: g
    character(len=*), intent(in) :: path
    integer, intent(in), optional :: format, weight_type, flags
    integer, intent(out), optional :: stat
    integer(c_int) :: fm, wt
    integer(c_int32_t) :: f
    fm = GSP_FORMAT_AUTO
    wt = GSP_F32
    f = 0
    if (present(format)) fm = int(format, c_int)
    if (present(weight_type)) wt = int(weight_type, c_int)
    if (present(flags)) f = int(flags, c_int32_t)
    call finish(gsp_graph_load(g%p, to_c(path), fm, wt, f), stat, "gsp_graph_read")
  end subroutine

  subroutine gsp_graph_write(g, path, format, stat)
    type(gsp_graph_t), intent(in) :: g
    character(len=*), intent(in) :: path
    integer, intent(in), optional :: format
    integer, intent(out), optional :: stat
    integer(c_int) :: fm
    fm = GSP_FORMAT_AUTO
    if (present(format)) fm = int(format, c_int)
    if (.not. c_associated(g%p)) then
      call refuse(stat, "gsp_graph_write", "the graph was destroyed")
      return
    end if
    call finish(gsp_graph_save(g%p, to_c(path), fm), stat, "gsp_graph_write")
  end subroutine

  subroutine destroy_graph(g)
    type(gsp_graph_t), intent(inout) :: g
    call gsp_graph_destroy(g%p)
    g%p = c_null_ptr
  end subroutine

  logical function valid_graph(g)
    type(gsp_graph_t), intent(in) :: g
    valid_graph = c_associated(g%p)
  end function

  !> n, or -1 for a destroyed graph.
  integer function gsp_num_vertices(g)
    type(gsp_graph_t), intent(in) :: g
    gsp_num_vertices = -1
    if (c_associated(g%p)) gsp_num_vertices = int(gsp_graph_num_vertices(g%p))
  end function

  integer(c_int64_t) function gsp_num_edges(g)
    type(gsp_graph_t), intent(in) :: g
    gsp_num_edges = -1
    if (c_associated(g%p)) gsp_num_edges = gsp_graph_num_edges(g%p)
  end function

  integer function gsp_weight_type(g)
    type(gsp_graph_t), intent(in) :: g
    gsp_weight_type = 0
    if (c_associated(g%p)) gsp_weight_type = int(gsp_graph_weight_type(g%p))
  end function

  ! ------------------------------------------------------------ runs
  subroutine wrap_paths(r, stat, where)
    type(gsp_paths_t), intent(inout) :: r
    integer, intent(out), optional :: stat
    character(len=*), intent(in) :: where
    type(gsp_run_info), target :: info
    info%size = int(c_sizeof(info), c_int32_t)
    call finish(gsp_paths_info(r%p, info), stat, where)
    r%n = info%num_vertices
    r%wt = info%weight_type
  end subroutine

  !> Single-source shortest paths from source (1-based).
  subroutine gsp_sssp(g, source, result, options, stat)
    type(gsp_graph_t), intent(in) :: g
    integer, intent(in) :: source
    type(gsp_paths_t), intent(out) :: result
    type(gsp_options), intent(in), optional :: options
    integer, intent(out), optional :: stat
    type(gsp_options) :: o
    integer(c_int) :: st
    if (.not. c_associated(g%p)) then
      call refuse(stat, "gsp_sssp", "the graph was destroyed")
      return
    end if
    if (present(options)) then
      o = options
    else
      call gsp_options_init(o)
    end if
    st = gsp_sssp_run(g%p, int(source - 1, c_int32_t), o, result%p)
    call finish(st, stat, "gsp_sssp")
    if (st == GSP_OK) call wrap_paths(result, stat, "gsp_sssp")
  end subroutine

  !> All-pairs shortest paths, or from sources(:) (1-based), one row each.
  subroutine gsp_apsp(g, result, options, sources, stat)
    type(gsp_graph_t), intent(in) :: g
    type(gsp_paths_t), intent(out) :: result
    type(gsp_options), intent(in), optional :: options
    integer, intent(in), optional :: sources(:)
    integer, intent(out), optional :: stat
    type(gsp_options) :: o
    integer(c_int32_t), allocatable, target :: s0(:)
    integer(c_int) :: st
    if (.not. c_associated(g%p)) then
      call refuse(stat, "gsp_apsp", "the graph was destroyed")
      return
    end if
    if (present(options)) then
      o = options
    else
      call gsp_options_init(o)
    end if
    if (present(sources)) then
      allocate(s0(max(size(sources), 1)))
      s0(1:size(sources)) = int(sources, c_int32_t) - 1
      st = gsp_apsp_run(g%p, c_loc(s0), int(size(sources), c_int32_t), o, result%p)
    else
      st = gsp_apsp_run(g%p, c_null_ptr, 0_c_int32_t, o, result%p)
    end if
    call finish(st, stat, "gsp_apsp")
    if (st == GSP_OK) call wrap_paths(result, stat, "gsp_apsp")
  end subroutine

  ! ------------------------------------------------------------ results
  subroutine destroy_paths(r)
    type(gsp_paths_t), intent(inout) :: r
    call gsp_paths_destroy(r%p)
    r%p = c_null_ptr
  end subroutine

  logical function valid_paths(r)
    type(gsp_paths_t), intent(in) :: r
    valid_paths = c_associated(r%p)
  end function

  integer function num_sources_paths(r)
    type(gsp_paths_t), intent(in) :: r
    num_sources_paths = -1
    if (c_associated(r%p)) num_sources_paths = int(gsp_paths_num_sources(r%p))
  end function

  !> The source vertex (1-based) of row i (1-based); 0 if out of range.
  integer function gsp_source(r, i)
    type(gsp_paths_t), intent(in) :: r
    integer, intent(in) :: i
    gsp_source = 0
    if (c_associated(r%p)) gsp_source = int(gsp_paths_source(r%p, int(i - 1, c_int32_t))) + 1
  end function

  logical function check_paths(r, stat, where, wt)
    type(gsp_paths_t), intent(in) :: r
    integer, intent(out), optional :: stat
    character(len=*), intent(in) :: where
    integer(c_int), intent(in) :: wt
    check_paths = .false.
    if (.not. c_associated(r%p)) then
      call refuse(stat, where, "the result was destroyed")
    else if (wt /= 0 .and. wt /= r%wt) then
      call refuse(stat, where, "the distance array's kind does not match the graph's weight type")
    else
      check_paths = .true.
    end if
  end function

  !> Distances from source to every vertex (+huge/inf or GSP_I32_INF: unreachable).
  subroutine distances_f32(r, source, d, stat)
    type(gsp_paths_t), intent(in) :: r
    integer, intent(in) :: source
    real(c_float), allocatable, target, intent(out) :: d(:)
    integer, intent(out), optional :: stat
    if (.not. check_paths(r, stat, "gsp_distances", GSP_F32)) return
    allocate(d(r%n))
    call finish(gsp_paths_distances(r%p, int(source - 1, c_int32_t), c_loc(d), int(r%n, c_int64_t)), &
                stat, "gsp_distances")
  end subroutine

  subroutine distances_i32(r, source, d, stat)
    type(gsp_paths_t), intent(in) :: r
    integer, intent(in) :: source
    integer(c_int32_t), allocatable, target, intent(out) :: d(:)
    integer, intent(out), optional :: stat
    if (.not. check_paths(r, stat, "gsp_distances", GSP_I32)) return
    allocate(d(r%n))
    call finish(gsp_paths_distances(r%p, int(source - 1, c_int32_t), c_loc(d), int(r%n, c_int64_t)), &
                stat, "gsp_distances")
  end subroutine

  subroutine distance_f32(r, source, target, d, stat)
    type(gsp_paths_t), intent(in) :: r
    integer, intent(in) :: source, target
    real(c_float), target, intent(out) :: d
    integer, intent(out), optional :: stat
    if (.not. check_paths(r, stat, "gsp_distance", GSP_F32)) return
    call finish(gsp_paths_distance(r%p, int(source - 1, c_int32_t), int(target - 1, c_int32_t), c_loc(d)), &
                stat, "gsp_distance")
  end subroutine

  subroutine distance_i32(r, source, target, d, stat)
    type(gsp_paths_t), intent(in) :: r
    integer, intent(in) :: source, target
    integer(c_int32_t), target, intent(out) :: d
    integer, intent(out), optional :: stat
    if (.not. check_paths(r, stat, "gsp_distance", GSP_I32)) return
    call finish(gsp_paths_distance(r%p, int(source - 1, c_int32_t), int(target - 1, c_int32_t), c_loc(d)), &
                stat, "gsp_distance")
  end subroutine

  !> Predecessor (1-based; 0: none) of every vertex on its path from source.
  subroutine gsp_predecessors(r, source, pred, stat)
    type(gsp_paths_t), intent(in) :: r
    integer, intent(in) :: source
    integer, allocatable, intent(out) :: pred(:)
    integer, intent(out), optional :: stat
    integer(c_int32_t), allocatable, target :: p0(:)
    integer(c_int) :: st
    if (.not. check_paths(r, stat, "gsp_predecessors", 0)) return
    allocate(p0(max(r%n, 1)))
    st = gsp_paths_predecessors(r%p, int(source - 1, c_int32_t), c_loc(p0), int(r%n, c_int64_t))
    call finish(st, stat, "gsp_predecessors")
    if (st == GSP_OK) pred = int(p0(1:r%n)) + 1
  end subroutine

  !> The vertices (1-based) of a shortest path, source and target included.
  subroutine path_paths(r, source, target, vertices, stat)
    type(gsp_paths_t), intent(in) :: r
    integer, intent(in) :: source, target
    integer, allocatable, intent(out) :: vertices(:)
    integer, intent(out), optional :: stat
    integer(c_int32_t), allocatable, target :: v0(:)
    integer(c_int32_t) :: length, cap
    integer(c_int) :: st
    if (.not. check_paths(r, stat, "gsp_path", 0)) return
    length = 0
    st = gsp_path_get(r%p, int(source - 1, c_int32_t), int(target - 1, c_int32_t), c_null_ptr, 0_c_int32_t, length)
    if (st == GSP_OK) then
      cap = length
      allocate(v0(max(cap, 1)))
      st = gsp_path_get(r%p, int(source - 1, c_int32_t), int(target - 1, c_int32_t), c_loc(v0), cap, length)
    end if
    call finish(st, stat, "gsp_path")
    if (st == GSP_OK) vertices = int(v0(1:length)) + 1
  end subroutine

  !> What the run did.
  subroutine info_paths(r, info, stat)
    type(gsp_paths_t), intent(in) :: r
    type(gsp_run_info), intent(out) :: info
    integer, intent(out), optional :: stat
    if (.not. check_paths(r, stat, "gsp_info", 0)) return
    info%size = int(c_sizeof(info), c_int32_t)
    call finish(gsp_paths_info(r%p, info), stat, "gsp_info")
  end subroutine

  ! ------------------------------------------------------------ tables
  !> Many-to-many shortest paths: from every vertex of sources(:) to every
  !> vertex of targets(:) (1-based; either list may repeat ids or be empty).
  !> Only those cells are computed and kept, never whole rows. The algorithm
  !> is GSP_ALGO_AUTO or an all-pairs one; options%flags = GSP_NO_PATHS keeps
  !> distances only.
  subroutine gsp_table(g, sources, targets, result, options, stat)
    type(gsp_graph_t), intent(in) :: g
    integer, intent(in) :: sources(:), targets(:)
    type(gsp_table_t), intent(out) :: result
    type(gsp_options), intent(in), optional :: options
    integer, intent(out), optional :: stat
    type(gsp_options) :: o
    integer(c_int32_t), allocatable, target :: s0(:), t0(:)
    type(gsp_run_info), target :: info
    integer(c_int) :: st
    if (.not. c_associated(g%p)) then
      call refuse(stat, "gsp_table", "the graph was destroyed")
      return
    end if
    if (present(options)) then
      o = options
    else
      call gsp_options_init(o)
    end if
    allocate(s0(max(size(sources), 1)), t0(max(size(targets), 1)))
    s0(1:size(sources)) = int(sources, c_int32_t) - 1
    t0(1:size(targets)) = int(targets, c_int32_t) - 1
    st = gsp_table_run(g%p, c_loc(s0), int(size(sources), c_int32_t), c_loc(t0), int(size(targets), c_int32_t), &
                       o, result%p)
    if (st == GSP_OK) st = gsp_table_size(result%p, result%k, result%t)
    if (st == GSP_OK) then
      info%size = int(c_sizeof(info), c_int32_t)
      st = gsp_table_info(result%p, info)
      result%wt = info%weight_type
    end if
    call finish(st, stat, "gsp_table")
  end subroutine

  subroutine destroy_table(r)
    type(gsp_table_t), intent(inout) :: r
    call gsp_table_destroy(r%p)
    r%p = c_null_ptr
  end subroutine

  logical function valid_table(r)
    type(gsp_table_t), intent(in) :: r
    valid_table = c_associated(r%p)
  end function

  !> The table's rows: the number of sources (-1 once destroyed).
  integer function num_sources_table(r)
    type(gsp_table_t), intent(in) :: r
    num_sources_table = -1
    if (c_associated(r%p)) num_sources_table = int(r%k)
  end function

  !> The table's columns: the number of targets (-1 once destroyed).
  integer function gsp_num_targets(r)
    type(gsp_table_t), intent(in) :: r
    gsp_num_targets = -1
    if (c_associated(r%p)) gsp_num_targets = int(r%t)
  end function

  logical function check_table(r, stat, where, wt)
    type(gsp_table_t), intent(in) :: r
    integer, intent(out), optional :: stat
    character(len=*), intent(in) :: where
    integer(c_int), intent(in) :: wt
    check_table = .false.
    if (.not. c_associated(r%p)) then
      call refuse(stat, where, "the table was destroyed")
    else if (wt /= 0 .and. wt /= r%wt) then
      call refuse(stat, where, "the distance array's kind does not match the graph's weight type")
    else
      check_table = .true.
    end if
  end function

  !> All distances of a table: d(i, j) from sources(i) to targets(j)
  !> (+inf or GSP_I32_INF: unreachable).
  subroutine table_distances_f32(r, d, stat)
    type(gsp_table_t), intent(in) :: r
    real(c_float), allocatable, intent(out) :: d(:,:)
    integer, intent(out), optional :: stat
    real(c_float), allocatable, target :: buf(:)
    integer(c_int64_t) :: cells
    integer(c_int) :: st
    if (.not. check_table(r, stat, "gsp_distances", GSP_F32)) return
    cells = int(r%k, c_int64_t) * r%t
    allocate(buf(max(cells, 1_c_int64_t)))
    st = gsp_table_distances(r%p, c_loc(buf), cells)
    call finish(st, stat, "gsp_distances")
    if (st == GSP_OK) d = transpose(reshape(buf(1:cells), [r%t, r%k]))  ! C rows are sources
  end subroutine

  subroutine table_distances_i32(r, d, stat)
    type(gsp_table_t), intent(in) :: r
    integer(c_int32_t), allocatable, intent(out) :: d(:,:)
    integer, intent(out), optional :: stat
    integer(c_int32_t), allocatable, target :: buf(:)
    integer(c_int64_t) :: cells
    integer(c_int) :: st
    if (.not. check_table(r, stat, "gsp_distances", GSP_I32)) return
    cells = int(r%k, c_int64_t) * r%t
    allocate(buf(max(cells, 1_c_int64_t)))
    st = gsp_table_distances(r%p, c_loc(buf), cells)
    call finish(st, stat, "gsp_distances")
    if (st == GSP_OK) d = transpose(reshape(buf(1:cells), [r%t, r%k]))
  end subroutine

  !> The distance of cell (i, j): from sources(i) to targets(j).
  subroutine table_distance_f32(r, i, j, d, stat)
    type(gsp_table_t), intent(in) :: r
    integer, intent(in) :: i, j
    real(c_float), target, intent(out) :: d
    integer, intent(out), optional :: stat
    if (.not. check_table(r, stat, "gsp_distance", GSP_F32)) return
    call finish(gsp_table_distance(r%p, int(i - 1, c_int32_t), int(j - 1, c_int32_t), c_loc(d)), &
                stat, "gsp_distance")
  end subroutine

  subroutine table_distance_i32(r, i, j, d, stat)
    type(gsp_table_t), intent(in) :: r
    integer, intent(in) :: i, j
    integer(c_int32_t), target, intent(out) :: d
    integer, intent(out), optional :: stat
    if (.not. check_table(r, stat, "gsp_distance", GSP_I32)) return
    call finish(gsp_table_distance(r%p, int(i - 1, c_int32_t), int(j - 1, c_int32_t), c_loc(d)), &
                stat, "gsp_distance")
  end subroutine

  !> The vertices (1-based) of a shortest path of cell (i, j), from
  !> sources(i) to targets(j), both included.
  subroutine path_table(r, i, j, vertices, stat)
    type(gsp_table_t), intent(in) :: r
    integer, intent(in) :: i, j
    integer, allocatable, intent(out) :: vertices(:)
    integer, intent(out), optional :: stat
    integer(c_int32_t), allocatable, target :: v0(:)
    integer(c_int32_t) :: length, cap
    integer(c_int) :: st
    if (.not. check_table(r, stat, "gsp_path", 0)) return
    length = 0
    st = gsp_table_path(r%p, int(i - 1, c_int32_t), int(j - 1, c_int32_t), c_null_ptr, 0_c_int32_t, length)
    if (st == GSP_OK) then
      cap = length
      allocate(v0(max(cap, 1)))
      st = gsp_table_path(r%p, int(i - 1, c_int32_t), int(j - 1, c_int32_t), c_loc(v0), cap, length)
    end if
    call finish(st, stat, "gsp_path")
    if (st == GSP_OK) vertices = int(v0(1:length)) + 1
  end subroutine

  !> What the table's run did (num_sources is the number of sources).
  subroutine info_table(r, info, stat)
    type(gsp_table_t), intent(in) :: r
    type(gsp_run_info), intent(out) :: info
    integer, intent(out), optional :: stat
    if (.not. check_table(r, stat, "gsp_info", 0)) return
    info%size = int(c_sizeof(info), c_int32_t)
    call finish(gsp_table_info(r%p, info), stat, "gsp_info")
  end subroutine

  function gsp_device_name(info) result(s)
    type(gsp_run_info), intent(in) :: info
    character(len=:), allocatable :: s
    integer :: i
    s = ""
    do i = 1, size(info%device_name)
      if (info%device_name(i) == c_null_char) exit
      s = s // info%device_name(i)
    end do
  end function
end module gsp
