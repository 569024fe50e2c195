! Module gsp_tables: many-to-many tables (gsp_table) and their type
! gsp_table_t, whose cells are addressed by index into the source and
! target lists. Part of module gsp, which re-exports its public names.
module gsp_tables
  use, intrinsic :: iso_c_binding
  use gsp_c
  use gsp_common
  use gsp_graphs, only: gsp_graph_t, graph_is_valid => gsp_is_valid, graph_handle
  implicit none
  private

  !> A many-to-many table: cell (i, j) is from sources(i) to targets(j).
  type, public :: gsp_table_t
    private
    type(c_ptr) :: p = c_null_ptr
    integer(c_int32_t) :: k = 0, t = 0
    integer(c_int) :: wt = 0
  end type

  public :: gsp_table, gsp_destroy, gsp_is_valid, gsp_num_sources, gsp_num_targets, gsp_distances, gsp_distance, &
            gsp_path, gsp_info

  interface gsp_destroy
    module procedure destroy_table
  end interface
  interface gsp_is_valid
    module procedure valid_table
  end interface
  interface gsp_distances
    module procedure table_distances_f32, table_distances_i32, table_distances_f64
  end interface
  interface gsp_distance
    module procedure table_distance_f32, table_distance_i32, table_distance_f64
  end interface
  interface gsp_path
    module procedure path_table
  end interface
  interface gsp_info
    module procedure info_table
  end interface
  interface gsp_num_sources
    module procedure num_sources_table
  end interface

contains

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
    if (.not. graph_is_valid(g)) then
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
    st = gsp_table_run(graph_handle(g), c_loc(s0), int(size(sources), c_int32_t), c_loc(t0), &
                       int(size(targets), c_int32_t), o, result%p)
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

  subroutine table_distances_f64(r, d, stat)
    type(gsp_table_t), intent(in) :: r
    real(c_double), allocatable, intent(out) :: d(:,:)
    integer, intent(out), optional :: stat
    real(c_double), allocatable, target :: buf(:)
    integer(c_int64_t) :: cells
    integer(c_int) :: st
    if (.not. check_table(r, stat, "gsp_distances", GSP_F64)) return
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

  subroutine table_distance_f64(r, i, j, d, stat)
    type(gsp_table_t), intent(in) :: r
    integer, intent(in) :: i, j
    real(c_double), target, intent(out) :: d
    integer, intent(out), optional :: stat
    if (.not. check_table(r, stat, "gsp_distance", GSP_F64)) return
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
end module gsp_tables
