! Prints the Fortran binding's view of the ABI (format of tests/test_abi_layout.c).
program abi
  use, intrinsic :: iso_c_binding
  use gsp_c
  implicit none
  type(gsp_options), target :: o
  type(gsp_run_info), target :: r
  print '(a,i0)', "size gsp_options ", c_sizeof(o)
  call off("gsp_options.size", c_loc(o%size), c_loc(o))
  call off("gsp_options.backend", c_loc(o%backend), c_loc(o))
  call off("gsp_options.algorithm", c_loc(o%algorithm), c_loc(o))
  call off("gsp_options.device", c_loc(o%device), c_loc(o))
  call off("gsp_options.flags", c_loc(o%flags), c_loc(o))
  call off("gsp_options.delta", c_loc(o%delta), c_loc(o))
  call off("gsp_options.num_threads", c_loc(o%num_threads), c_loc(o))
  call off("gsp_options.device_memory_limit", c_loc(o%device_memory_limit), c_loc(o))
  call off("gsp_options.cuda_stream", c_loc(o%cuda_stream), c_loc(o))
  call off("gsp_options.progress", c_loc(o%progress), c_loc(o))
  call off("gsp_options.progress_user", c_loc(o%progress_user), c_loc(o))
  call off("gsp_options.limit", c_loc(o%limit), c_loc(o))
  call off("gsp_options.num_devices", c_loc(o%num_devices), c_loc(o))
  call off("gsp_options.index", c_loc(o%index), c_loc(o))
  print '(a,i0)', "size gsp_run_info ", c_sizeof(r)
  call off("gsp_run_info.size", c_loc(r%size), c_loc(r))
  call off("gsp_run_info.backend", c_loc(r%backend), c_loc(r))
  call off("gsp_run_info.algorithm", c_loc(r%algorithm), c_loc(r))
  call off("gsp_run_info.weight_type", c_loc(r%weight_type), c_loc(r))
  call off("gsp_run_info.num_vertices", c_loc(r%num_vertices), c_loc(r))
  call off("gsp_run_info.num_sources", c_loc(r%num_sources), c_loc(r))
  call off("gsp_run_info.device", c_loc(r%device), c_loc(r))
  call off("gsp_run_info.device_name", c_loc(r%device_name), c_loc(r))
  call off("gsp_run_info.seconds", c_loc(r%seconds), c_loc(r))
  call off("gsp_run_info.upload_seconds", c_loc(r%upload_seconds), c_loc(r))
  call off("gsp_run_info.iterations", c_loc(r%iterations), c_loc(r))
  call off("gsp_run_info.relaxations", c_loc(r%relaxations), c_loc(r))
  call off("gsp_run_info.has_paths", c_loc(r%has_paths), c_loc(r))
  call off("gsp_run_info.setup_seconds", c_loc(r%setup_seconds), c_loc(r))
  call off("gsp_run_info.compute_seconds", c_loc(r%compute_seconds), c_loc(r))
  call off("gsp_run_info.copy_seconds", c_loc(r%copy_seconds), c_loc(r))
  call off("gsp_run_info.paths_seconds", c_loc(r%paths_seconds), c_loc(r))
  call off("gsp_run_info.num_devices", c_loc(r%num_devices), c_loc(r))
  ! The constants are generated from gsp.h (gsp_constants.inc); the
  ! generator's output is what the module compiles, so they are printed by
  ! the check script from that file.
contains
  subroutine off(name, field, base)
    character(len=*), intent(in) :: name
    type(c_ptr), intent(in) :: field, base
    integer(c_intptr_t) :: f, b
    f = transfer(field, f)
    b = transfer(base, b)
    print '(a,a,a,i0)', "offset ", name, " ", f - b
  end subroutine
end program
