! Module gsp_search: nearest-source searches (gsp_nearest, over
! gsp_nearest_run of gsp_search.h): for every vertex, the distance from the
! closest of many sources, which source that is, and the path. Part of
! module gsp, which re-exports its public names. The distance limit is the
! field limit of gsp_options (gsp_options_init sets +Infinity: none).
module gsp_search
  use, intrinsic :: iso_c_binding
  use gsp_c
  use gsp_common
  use gsp_graphs, only: gsp_graph_t, graph_is_valid => gsp_is_valid, graph_handle, gsp_weight_type
  implicit none
  private

  public :: gsp_nearest

  !> call gsp_nearest(g, sources, distances, nearest [, options] [, predecessors] [, stat])
  !> distances is real(c_float), integer(c_int32_t) or real(c_double), after
  !> the graph's weight type.
  interface gsp_nearest
    module procedure nearest_f32, nearest_i32, nearest_f64
  end interface

contains

  !> The run shared by the three kinds; distances (n values of the graph's
  !> type) was allocated by the caller.
  subroutine nearest_common(g, sources, d, nearest, options, predecessors, stat)
    type(gsp_graph_t), intent(in) :: g
    integer, intent(in) :: sources(:)
    type(c_ptr), intent(in) :: d
    integer, allocatable, intent(out) :: nearest(:)
    type(gsp_options), intent(in), optional :: options
    integer, allocatable, intent(out), optional :: predecessors(:)
    integer, intent(out), optional :: stat
    type(gsp_options) :: o
    integer(c_int32_t), allocatable, target :: s0(:), near0(:), pred0(:)
    type(c_ptr) :: pp
    integer :: n
    integer(c_int) :: st
    logical :: want_pred
    if (present(options)) then
      o = options
    else
      call gsp_options_init(o)
    end if
    n = int(gsp_graph_num_vertices(graph_handle(g)))
    allocate(s0(max(size(sources), 1)), near0(max(n, 1)))
    s0(1:size(sources)) = int(sources, c_int32_t) - 1
    ! With GSP_NO_PATHS there are no predecessors: predecessors stays unallocated.
    want_pred = present(predecessors) .and. iand(o%flags, int(GSP_NO_PATHS, c_int32_t)) == 0
    pp = c_null_ptr
    if (want_pred) then
      allocate(pred0(max(n, 1)))
      pp = c_loc(pred0)
    end if
    st = gsp_nearest_run(graph_handle(g), merge(c_loc(s0), c_null_ptr, size(sources) > 0), &
                         int(size(sources), c_int32_t), o, d, c_loc(near0), pp)
    call finish(st, stat, "gsp_nearest")
    if (st /= GSP_OK) return
    nearest = int(near0(1:n)) + 1            ! 0: no source reaches
    if (want_pred) predecessors = int(pred0(1:n)) + 1  ! 0: a source, or unreached
  end subroutine

  logical function check_nearest(g, stat, wt)
    type(gsp_graph_t), intent(in) :: g
    integer, intent(out), optional :: stat
    integer(c_int), intent(in) :: wt
    check_nearest = .false.
    if (.not. graph_is_valid(g)) then
      call refuse(stat, "gsp_nearest", "the graph was destroyed")
    else if (gsp_weight_type(g) /= wt) then
      call refuse(stat, "gsp_nearest", "the distance array's kind does not match the graph's weight type")
    else
      check_nearest = .true.
    end if
  end function

  !> One search from all of sources(:) (1-based) at once: distances(v) from
  !> the nearest source (+inf: none reaches, or none within options%limit),
  !> nearest(v) that source (0: none), and optionally predecessors(v), the
  !> vertex before v on its path (0 at sources and unreached vertices; left
  !> unallocated with GSP_NO_PATHS). The algorithm is GSP_ALGO_AUTO or a
  !> single-source one. For real(c_float) distances (GSP_F32 graphs).
  subroutine nearest_f32(g, sources, distances, nearest, options, predecessors, stat)
    type(gsp_graph_t), intent(in) :: g
    integer, intent(in) :: sources(:)
    real(c_float), allocatable, target, intent(out) :: distances(:)
    integer, allocatable, intent(out) :: nearest(:)
    type(gsp_options), intent(in), optional :: options
    integer, allocatable, intent(out), optional :: predecessors(:)
    integer, intent(out), optional :: stat
    if (.not. check_nearest(g, stat, GSP_F32)) return
    allocate(distances(max(gsp_graph_num_vertices(graph_handle(g)), 0)))
    call nearest_common(g, sources, merge(c_loc(distances), c_null_ptr, size(distances) > 0), nearest, &
                        options, predecessors, stat)
  end subroutine

  !> gsp_nearest for integer(c_int32_t) distances (GSP_I32 graphs; GSP_I32_INF: none reaches).
  subroutine nearest_i32(g, sources, distances, nearest, options, predecessors, stat)
    type(gsp_graph_t), intent(in) :: g
    integer, intent(in) :: sources(:)
    integer(c_int32_t), allocatable, target, intent(out) :: distances(:)
    integer, allocatable, intent(out) :: nearest(:)
    type(gsp_options), intent(in), optional :: options
    integer, allocatable, intent(out), optional :: predecessors(:)
    integer, intent(out), optional :: stat
    if (.not. check_nearest(g, stat, GSP_I32)) return
    allocate(distances(max(gsp_graph_num_vertices(graph_handle(g)), 0)))
    call nearest_common(g, sources, merge(c_loc(distances), c_null_ptr, size(distances) > 0), nearest, &
                        options, predecessors, stat)
  end subroutine

  !> gsp_nearest for real(c_double) distances (GSP_F64 graphs).
  subroutine nearest_f64(g, sources, distances, nearest, options, predecessors, stat)
    type(gsp_graph_t), intent(in) :: g
    integer, intent(in) :: sources(:)
    real(c_double), allocatable, target, intent(out) :: distances(:)
    integer, allocatable, intent(out) :: nearest(:)
    type(gsp_options), intent(in), optional :: options
    integer, allocatable, intent(out), optional :: predecessors(:)
    integer, intent(out), optional :: stat
    if (.not. check_nearest(g, stat, GSP_F64)) return
    allocate(distances(max(gsp_graph_num_vertices(graph_handle(g)), 0)))
    call nearest_common(g, sources, merge(c_loc(distances), c_null_ptr, size(distances) > 0), nearest, &
                        options, predecessors, stat)
  end subroutine
end module gsp_search
