! Module gsp_graphs: the graph type gsp_graph_t and its routines (from arcs,
! from CSR, files, sizes), and the road index of a graph, gsp_index_t
! (gsp_index.h: build, files, sizes, gsp_set_index for the runs' options).
! Part of module gsp, which re-exports its public names; graph_handle gives
! the other modules the C handle.
module gsp_graphs
  use, intrinsic :: iso_c_binding
  use gsp_c
  use gsp_common
  implicit none
  private

  type, public :: gsp_graph_t
    private
    type(c_ptr) :: p = c_null_ptr
  end type

  !> A road index (contraction hierarchy) of a graph: gsp_index_create builds
  !> it, gsp_index_write / gsp_index_read keep it in a file, gsp_set_index
  !> puts it in a run's options; free it with gsp_destroy.
  type, public :: gsp_index_t
    private
    type(c_ptr) :: p = c_null_ptr
  end type

  public :: gsp_graph_from_arcs, gsp_graph_from_csr, gsp_graph_read, gsp_graph_write, gsp_destroy, gsp_is_valid, &
            gsp_num_vertices, gsp_num_edges, gsp_weight_type, graph_handle, gsp_index_create, gsp_index_read, &
            gsp_index_write, gsp_index_sizes, gsp_set_index

  interface gsp_graph_from_arcs
    module procedure from_arcs_f32, from_arcs_i32, from_arcs_f64, from_arcs_unit
  end interface
  !> offsets of default integer kind, or of kind c_int64_t for graphs of
  !> 2^31 arcs and more.
  interface gsp_graph_from_csr
    module procedure from_csr_f32, from_csr_i32, from_csr_f64, from_csr64_f32, from_csr64_i32, from_csr64_f64
  end interface
  interface gsp_destroy
    module procedure destroy_graph, destroy_index
  end interface
  interface gsp_is_valid
    module procedure valid_graph, valid_index
  end interface

contains

  !> The C handle (c_null_ptr once destroyed), for the runs of the other modules.
  type(c_ptr) function graph_handle(g)
    type(gsp_graph_t), intent(in) :: g
    graph_handle = g%p
  end function

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
    integer(c_int64_t) :: m
    if (size(src, kind=c_int64_t) /= size(dst, kind=c_int64_t)) then
      call refuse(stat, "gsp_graph_from_arcs", "sources and targets differ in length")
      return
    end if
    f = 0
    if (present(flags)) f = int(flags, c_int32_t)
    m = size(src, kind=c_int64_t)  ! default-kind size() overflows past 2^31 - 1 arcs
    allocate(s0(max(m, 1_c_int64_t)), d0(max(m, 1_c_int64_t)))
    s0(1:m) = int(src, c_int32_t) - 1
    d0(1:m) = int(dst, c_int32_t) - 1
    call finish(gsp_graph_create(g%p, int(n, c_int32_t), m, c_loc(s0), c_loc(d0), &
                                 w, wt, f), stat, "gsp_graph_from_arcs")
  end subroutine

  !> A graph from arcs src(i) -> dst(i) (1-based) with real(c_float) weights.
  subroutine from_arcs_f32(g, n, src, dst, weights, flags, stat)
    type(gsp_graph_t), intent(out) :: g
    integer, intent(in) :: n, src(:), dst(:)
    real(c_float), intent(in), target, contiguous :: weights(:)
    integer, intent(in), optional :: flags
    integer, intent(out), optional :: stat
    if (size(weights, kind=c_int64_t) /= size(src, kind=c_int64_t)) then
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
    if (size(weights, kind=c_int64_t) /= size(src, kind=c_int64_t)) then
      call refuse(stat, "gsp_graph_from_arcs", "weights and arcs differ in number")
      return
    end if
    call from_arcs_common(g, n, src, dst, merge(c_loc(weights), c_null_ptr, size(weights) > 0), GSP_I32, flags, stat)
  end subroutine

  !> A graph from arcs with real(c_double) weights (GSP_F64: distances are real(c_double) too).
  subroutine from_arcs_f64(g, n, src, dst, weights, flags, stat)
    type(gsp_graph_t), intent(out) :: g
    integer, intent(in) :: n, src(:), dst(:)
    real(c_double), intent(in), target, contiguous :: weights(:)
    integer, intent(in), optional :: flags
    integer, intent(out), optional :: stat
    if (size(weights, kind=c_int64_t) /= size(src, kind=c_int64_t)) then
      call refuse(stat, "gsp_graph_from_arcs", "weights and arcs differ in number")
      return
    end if
    call from_arcs_common(g, n, src, dst, merge(c_loc(weights), c_null_ptr, size(weights) > 0), GSP_F64, flags, stat)
  end subroutine

  !> A graph from arcs with every weight 1, of type weight_type (GSP_F32, GSP_I32 or GSP_F64).
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
    allocate(o0(n + 1), t0(max(size(targets, kind=c_int64_t), 1_c_int64_t)))
    o0 = int(offsets, c_int64_t) - 1
    t0(1:size(targets, kind=c_int64_t)) = int(targets, c_int32_t) - 1
    call finish(gsp_graph_create_csr(g%p, int(n, c_int32_t), c_loc(o0), c_loc(t0), w, wt, f), &
                stat, "gsp_graph_from_csr")
  end subroutine

  !> from_csr_common with offsets of kind c_int64_t (2^31 arcs and more).
  subroutine from_csr64_common(g, n, offsets, targets, w, wt, flags, stat)
    type(gsp_graph_t), intent(out) :: g
    integer, intent(in) :: n, targets(:)
    integer(c_int64_t), intent(in) :: offsets(:)
    type(c_ptr), intent(in) :: w
    integer(c_int), intent(in) :: wt
    integer, intent(in), optional :: flags
    integer, intent(out), optional :: stat
    integer(c_int64_t), allocatable, target :: o0(:)
    integer(c_int32_t), allocatable, target :: t0(:)
    integer(c_int32_t) :: f
    if (size(offsets, kind=c_int64_t) /= int(n, c_int64_t) + 1) then
      call refuse(stat, "gsp_graph_from_csr", "offsets must hold n + 1 values")
      return
    end if
    f = 0
    if (present(flags)) f = int(flags, c_int32_t)
    allocate(o0(n + 1), t0(max(size(targets, kind=c_int64_t), 1_c_int64_t)))
    o0 = offsets - 1
    t0(1:size(targets, kind=c_int64_t)) = int(targets, c_int32_t) - 1
    call finish(gsp_graph_create_csr(g%p, int(n, c_int32_t), c_loc(o0), c_loc(t0), w, wt, f), &
                stat, "gsp_graph_from_csr")
  end subroutine

  subroutine from_csr64_f32(g, n, offsets, targets, weights, flags, stat)
    type(gsp_graph_t), intent(out) :: g
    integer, intent(in) :: n, targets(:)
    integer(c_int64_t), intent(in) :: offsets(:)
    real(c_float), intent(in), target, contiguous :: weights(:)
    integer, intent(in), optional :: flags
    integer, intent(out), optional :: stat
    call from_csr64_common(g, n, offsets, targets, merge(c_loc(weights), c_null_ptr, size(weights) > 0), &
                           GSP_F32, flags, stat)
  end subroutine

  subroutine from_csr64_i32(g, n, offsets, targets, weights, flags, stat)
    type(gsp_graph_t), intent(out) :: g
    integer, intent(in) :: n, targets(:)
    integer(c_int64_t), intent(in) :: offsets(:)
    integer(c_int32_t), intent(in), target, contiguous :: weights(:)
    integer, intent(in), optional :: flags
    integer, intent(out), optional :: stat
    call from_csr64_common(g, n, offsets, targets, merge(c_loc(weights), c_null_ptr, size(weights) > 0), &
                           GSP_I32, flags, stat)
  end subroutine

  subroutine from_csr64_f64(g, n, offsets, targets, weights, flags, stat)
    type(gsp_graph_t), intent(out) :: g
    integer, intent(in) :: n, targets(:)
    integer(c_int64_t), intent(in) :: offsets(:)
    real(c_double), intent(in), target, contiguous :: weights(:)
    integer, intent(in), optional :: flags
    integer, intent(out), optional :: stat
    call from_csr64_common(g, n, offsets, targets, merge(c_loc(weights), c_null_ptr, size(weights) > 0), &
                           GSP_F64, flags, stat)
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

  subroutine from_csr_f64(g, n, offsets, targets, weights, flags, stat)
    type(gsp_graph_t), intent(out) :: g
    integer, intent(in) :: n, offsets(:), targets(:)
    real(c_double), intent(in), target, contiguous :: weights(:)
    integer, intent(in), optional :: flags
    integer, intent(out), optional :: stat
    call from_csr_common(g, n, offsets, targets, merge(c_loc(weights), c_null_ptr, size(weights) > 0), &
                         GSP_F64, flags, stat)
  end subroutine

  !> Reads a DIMACS, Matrix Market or edge-list file (weight_type GSP_F32,
  !> the default, GSP_I32 or GSP_F64).
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

  ! ------------------------------------------------------------ road indexes
  !> Builds the road index of g (gsp_index_build; weights >= 0, else
  !> GSP_ERR_NEGATIVE_WEIGHT). Of options it reads num_threads (0: every
  !> core) and progress / progress_user (a bind(c) callback: non-zero stops
  !> the build, GSP_ERR_CANCELLED); num_threads, when present, overrides
  !> options%num_threads. info, when present, gets the build's seconds.
  subroutine gsp_index_create(ix, g, options, num_threads, info, stat)
    type(gsp_index_t), intent(out) :: ix
    type(gsp_graph_t), intent(in) :: g
    type(gsp_options), intent(in), optional :: options
    integer, intent(in), optional :: num_threads
    type(gsp_run_info), intent(out), target, optional :: info
    integer, intent(out), optional :: stat
    type(gsp_options) :: o
    type(c_ptr) :: pinfo
    if (.not. c_associated(g%p)) then
      call refuse(stat, "gsp_index_create", "the graph was destroyed")
      return
    end if
    if (present(options)) then
      o = options
    else
      call gsp_options_init(o)
    end if
    if (present(num_threads)) o%num_threads = int(num_threads, c_int32_t)
    pinfo = c_null_ptr
    if (present(info)) then
      info%size = int(c_sizeof(info), c_int32_t)
      pinfo = c_loc(info)
    end if
    call finish(gsp_index_build(g%p, o, ix%p, pinfo), stat, "gsp_index_create")
  end subroutine

  !> Reads an index that gsp_index_write wrote for g (gsp_index_load): a file
  !> cut short, damaged or not an index is GSP_ERR_PARSE, a missing one
  !> GSP_ERR_IO, an index of another graph GSP_ERR_INVALID_ARGUMENT.
  subroutine gsp_index_read(ix, g, path, stat)
    type(gsp_index_t), intent(out) :: ix
    type(gsp_graph_t), intent(in) :: g
    character(len=*), intent(in) :: path
    integer, intent(out), optional :: stat
    if (.not. c_associated(g%p)) then
      call refuse(stat, "gsp_index_read", "the graph was destroyed")
      return
    end if
    call finish(gsp_index_load(g%p, to_c(path), ix%p), stat, "gsp_index_read")
  end subroutine

  !> Writes the index to a file (a versioned binary format with a checksum).
  subroutine gsp_index_write(ix, path, stat)
    type(gsp_index_t), intent(in) :: ix
    character(len=*), intent(in) :: path
    integer, intent(out), optional :: stat
    if (.not. c_associated(ix%p)) then
      call refuse(stat, "gsp_index_write", "the index was destroyed")
      return
    end if
    call finish(gsp_index_save(ix%p, to_c(path)), stat, "gsp_index_write")
  end subroutine

  !> Sizes of an index: n of its graph, the arcs of its hierarchy (the
  !> graph's, merged, and the shortcuts) and the shortcut arcs.
  subroutine gsp_index_sizes(ix, num_vertices, num_arcs, num_shortcuts, stat)
    type(gsp_index_t), intent(in) :: ix
    integer, intent(out), optional :: num_vertices
    integer(c_int64_t), intent(out), optional :: num_arcs, num_shortcuts
    integer, intent(out), optional :: stat
    integer(c_int32_t) :: n
    integer(c_int64_t) :: arcs, shortcuts
    if (.not. c_associated(ix%p)) then
      call refuse(stat, "gsp_index_sizes", "the index was destroyed")
      return
    end if
    n = 0
    arcs = 0
    shortcuts = 0
    call finish(gsp_index_size(ix%p, n, arcs, shortcuts), stat, "gsp_index_sizes")
    if (present(num_vertices)) num_vertices = int(n)
    if (present(num_arcs)) num_arcs = arcs
    if (present(num_shortcuts)) num_shortcuts = shortcuts
  end subroutine

  !> Puts the index in options (options%index), so that gsp_sssp, gsp_apsp
  !> and gsp_table with algorithm GSP_ALGO_AUTO or GSP_CH answer from it. A
  !> destroyed index is refused; destroy the index only after the runs that
  !> use it (the options keep only its address). options%index = c_null_ptr
  !> (or gsp_options_init) takes it out again.
  subroutine gsp_set_index(options, ix, stat)
    type(gsp_options), intent(inout) :: options
    type(gsp_index_t), intent(in) :: ix
    integer, intent(out), optional :: stat
    if (.not. c_associated(ix%p)) then
      call refuse(stat, "gsp_set_index", "the index was destroyed")
      return
    end if
    options%index = ix%p
    if (present(stat)) stat = GSP_OK
  end subroutine

  subroutine destroy_index(ix)
    type(gsp_index_t), intent(inout) :: ix
    call gsp_index_destroy(ix%p)
    ix%p = c_null_ptr
  end subroutine

  logical function valid_index(ix)
    type(gsp_index_t), intent(in) :: ix
    valid_index = c_associated(ix%p)
  end function
end module gsp_graphs
