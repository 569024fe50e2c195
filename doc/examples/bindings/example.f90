! libgsp from Fortran: build a small graph (1-based ids), run SSSP and APSP, print a path.
program example
  use, intrinsic :: iso_c_binding
  use gsp
  implicit none
  type(gsp_graph_t) :: g
  type(gsp_paths_t) :: p
  type(gsp_options) :: opts
  type(gsp_run_info) :: info
  real(c_float), allocatable :: d(:)
  real(c_float) :: d24
  integer, allocatable :: path(:)
  integer :: st

  print '(2a)', "libgsp ", gsp_version_string()
  call gsp_graph_from_arcs(g, 4, [1, 2, 3, 1], [2, 3, 4, 4], [1.0_c_float, 2.0_c_float, 3.0_c_float, 10.0_c_float])

  call gsp_options_init(opts)
  opts%backend = GSP_BACKEND_CPU
  if (gsp_backend_is_available(GSP_BACKEND_CUDA)) opts%backend = GSP_BACKEND_CUDA
  call gsp_sssp(g, 1, p, opts)
  call gsp_info(p, info)
  call gsp_distances(p, 1, d)
  print '(4a,4f6.1)', "sssp on ", gsp_device_name(info), " ", gsp_algorithm_string(info%algorithm), d
  call gsp_path(p, 1, 4, path)
  print '(a,4i3)', "path:", path
  call gsp_destroy(p)

  call gsp_options_init(opts)
  opts%backend = GSP_BACKEND_CPU
  opts%algorithm = GSP_APSP_FLOYD_WARSHALL
  call gsp_apsp(g, p, opts)
  call gsp_distance(p, 2, 4, d24)
  print '(a,i0,a,f4.1)', "apsp rows: ", gsp_num_sources(p), ", d(2,4) = ", d24
  call gsp_path(p, 4, 1, path, stat=st)
  if (st == GSP_ERR_NO_PATH) print '(4a)', "expected error: ", gsp_status_string(st), ": ", gsp_error_message()
  call gsp_destroy(p)
  call gsp_destroy(g)
end program
