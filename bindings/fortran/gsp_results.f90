! Module gsp_results: single-source and all-pairs runs (gsp_sssp, gsp_apsp)
! and their result type gsp_paths_t (distances, predecessors, paths, what
! ran). Part of module gsp, which re-exports its public names.
module gsp_results
  use, intrinsic :: iso_c_binding
  use gsp_c
  use gsp_common
  use gsp_graphs, only: gsp_graph_t, graph_is_valid => gsp_is_valid, graph_handle
  implicit none
  private

  type, public :: gsp_paths_t
    private
    type(c_ptr) :: p = c_null_ptr
    integer(c_int32_t) :: n = 0
    integer(c_int) :: wt = 0
  end type

  public :: gsp_sssp, gsp_apsp, gsp_destroy, gsp_is_valid, gsp_num_sources, gsp_source, gsp_distances, &
            gsp_distance, gsp_predecessors, gsp_path, gsp_info, gsp_device_name

  interface gsp_destroy
    module procedure destroy_paths
  end interface
  interface gsp_is_valid
    module procedure valid_paths
  end interface
  interface gsp_distances
    module procedure distances_f32, distances_i32, distances_f64
  end interface
  interface gsp_distance
    module procedure distance_f32, distance_i32, distance_f64
  end interface
  interface gsp_path
    module procedure path_paths
  end interface
  interface gsp_info
    module procedure info_paths
  end interface
  interface gsp_num_sources
    module procedure num_sources_paths
  end interface

contains

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
    if (.not. graph_is_valid(g)) then
      call refuse(stat, "gsp_sssp", "the graph was destroyed")
      return
    end if
    if (present(options)) then
      o = options
    else
      call gsp_options_init(o)
    end if
    st = gsp_sssp_run(graph_handle(g), int(source - 1, c_int32_t), o, result%p)
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
    if (.not. graph_is_valid(g)) then
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
      st = gsp_apsp_run(graph_handle(g), c_loc(s0), int(size(sources), c_int32_t), o, result%p)
    else
      st = gsp_apsp_run(graph_handle(g), c_null_ptr, 0_c_int32_t, o, result%p)
    end if
    call finish(st, stat, "gsp_apsp")
    if (st == GSP_OK) call wrap_paths(result, stat, "gsp_apsp")
  end subroutine

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

  subroutine distances_f64(r, source, d, stat)
    type(gsp_paths_t), intent(in) :: r
    integer, intent(in) :: source
    real(c_double), allocatable, target, intent(out) :: d(:)
    integer, intent(out), optional :: stat
    if (.not. check_paths(r, stat, "gsp_distances", GSP_F64)) return
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

  subroutine distance_f64(r, source, target, d, stat)
    type(gsp_paths_t), intent(in) :: r
    integer, intent(in) :: source, target
    real(c_double), target, intent(out) :: d
    integer, intent(out), optional :: stat
    if (.not. check_paths(r, stat, "gsp_distance", GSP_F64)) return
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
end module gsp_results
