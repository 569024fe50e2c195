! Module gsp_common: what the other modules of the Fortran binding share (C
! strings, reporting a status to stat or stopping, this layer's own
! failures) and the library-wide routines (version, names, devices, the
! last error). Part of module gsp, which re-exports its public names.
module gsp_common
  use, intrinsic :: iso_c_binding
  use gsp_c
  implicit none
  private

  public :: c_string, to_c, finish, refuse
  public :: gsp_version_string, gsp_status_string, gsp_error_message, gsp_backend_is_available, &
            gsp_num_devices, gsp_free_cached_memory, gsp_backend_string, gsp_algorithm_string, gsp_algorithm_lookup, &
            gsp_kind_of, gsp_algorithms

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

  !> The kind of an algorithm (GSP_KIND_SSSP, GSP_KIND_APSP, GSP_KIND_INDEX,
  !> GSP_KIND_AUTO; GSP_KIND_UNKNOWN for a value the library does not know).
  integer function gsp_kind_of(algorithm) result(kind)
    integer, intent(in) :: algorithm
    kind = int(gsp_algorithm_kind(int(algorithm, c_int)))
  end function

  !> The library's algorithms of one kind, in value order, read from its
  !> table (values run 0, 1, 2, ... while the library knows them).
  function gsp_algorithms(kind) result(list)
    integer, intent(in) :: kind
    integer, allocatable :: list(:)
    integer :: a
    allocate (list(0))
    a = 0
    do while (gsp_algorithm_kind(int(a, c_int)) /= GSP_KIND_UNKNOWN)
      if (gsp_algorithm_kind(int(a, c_int)) == kind) list = [list, a]
      a = a + 1
    end do
  end function
end module gsp_common
