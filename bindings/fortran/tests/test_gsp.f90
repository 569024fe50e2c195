! Tests of module gsp (run by scripts/check_bindings.sh fortran).
program test_gsp
  use, intrinsic :: iso_c_binding
  use, intrinsic :: ieee_arithmetic
  use gsp
  implicit none
  integer, parameter :: n = 5
  integer :: src(4) = [1, 2, 3, 1], dst(4) = [2, 3, 4, 4]
  real(c_float) :: w(4) = [1.0, 2.0, 3.0, 10.0]
  type(gsp_graph_t) :: g, g2, gi
  type(gsp_paths_t) :: p
  type(gsp_table_t) :: tb
  type(gsp_options) :: opts
  type(gsp_run_info) :: info
  real(c_float), allocatable :: d(:)
  integer(c_int32_t), allocatable :: di(:)
  real(c_float), allocatable :: dm(:,:)
  integer(c_int32_t), allocatable :: dmi(:,:)
  real(c_float) :: d1
  integer, allocatable :: path(:), pred(:)
  integer :: st, b, a, ran, failures
  integer :: backends(2), nb
  integer, allocatable :: sssp_algos(:), apsp_algos(:), index_algos(:)
  character(len=256) :: tmp
  ! GSP_F64, the distance limit and gsp_nearest
  real(c_double) :: w64(4) = [0.1_c_double, 0.2_c_double, 0.4_c_double, 5.0_c_double]
  type(gsp_graph_t) :: g64
  real(c_double), allocatable :: d64(:), dm64(:,:)
  real(c_double) :: x64
  integer, allocatable :: near(:), npred(:)
  ! road indexes
  type(gsp_graph_t) :: gg, gother
  type(gsp_index_t) :: ix, ix2, ix3
  integer, allocatable :: gsrc(:), gdst(:)
  real(c_float), allocatable :: gw(:), d2(:), dm2(:,:)
  integer :: nv, nv2, u, fsize
  integer(c_int64_t) :: narcs, nshort, narcs2, nshort2
  character(len=1), allocatable :: bytes(:)
  failures = 0

  call expect(gsp_version_string() /= "", "version")
  call expect(gsp_status_string(GSP_ERR_NO_PATH) == "GSP_ERR_NO_PATH", "status name")
  call expect(gsp_algorithm_lookup(gsp_algorithm_string(GSP_SSSP_DIJKSTRA)) == GSP_SSSP_DIJKSTRA, "algorithm names")
  a = gsp_algorithm_lookup("no-such-algorithm", stat=st)
  call expect_status(st, GSP_ERR_INVALID_ARGUMENT, "bad algorithm name")

  ! The library's algorithms by kind (AUTO in both run lists): every one it
  ! names is in one list once, of its kind, and round-trips by name.
  sssp_algos = [GSP_ALGO_AUTO, gsp_algorithms(GSP_KIND_SSSP)]
  apsp_algos = [GSP_ALGO_AUTO, gsp_algorithms(GSP_KIND_APSP)]
  index_algos = gsp_algorithms(GSP_KIND_INDEX)
  call expect(gsp_kind_of(GSP_SSSP_DIJKSTRA) == GSP_KIND_SSSP .and. gsp_kind_of(GSP_CH) == GSP_KIND_INDEX .and. &
              gsp_kind_of(GSP_APSP_JOHNSON) == GSP_KIND_APSP .and. gsp_kind_of(1000) == GSP_KIND_UNKNOWN, "kinds")
  call expect(any(index_algos == GSP_CH) .and. any(sssp_algos == GSP_SSSP_HARISH), "lists by kind")
  do a = 0, 255
    if (gsp_algorithm_string(a) == "unknown") then
      call expect(count(sssp_algos == a) + count(apsp_algos == a) + count(index_algos == a) == 0, &
                  "listed but not an algorithm")
    else if (a /= GSP_ALGO_AUTO) then
      call expect(count(sssp_algos == a) + count(apsp_algos == a) + count(index_algos == a) == 1, &
                  "algorithm lists: " // gsp_algorithm_string(a))
      call expect(gsp_algorithm_lookup(gsp_algorithm_string(a)) == a, "round trip: " // gsp_algorithm_string(a))
    end if
  end do
  call expect(GSP_APSP_DELTA_STEPPING == 15 .and. &
              gsp_algorithm_string(GSP_APSP_DELTA_STEPPING) == "batched-delta-stepping", "batched-delta-stepping")
  call expect(GSP_APSP_SPMM == 16 .and. gsp_algorithm_string(GSP_APSP_SPMM) == "spmm", "spmm")
  call expect(GSP_CH == 17 .and. gsp_algorithm_string(GSP_CH) == "ch", "ch")

  call gsp_graph_from_arcs(g, n, src, dst, w)
  call expect(gsp_num_vertices(g) == n .and. gsp_num_edges(g) == 4 .and. gsp_weight_type(g) == GSP_F32, "graph")

  nb = 1
  backends(1) = GSP_BACKEND_CPU
  call gsp_free_cached_memory()  ! callable at any time
  if (gsp_backend_is_available(GSP_BACKEND_CUDA)) then
    nb = 2
    backends(2) = GSP_BACKEND_CUDA
  end if
  ran = 0
  do b = 1, nb
    do a = 1, size(sssp_algos)
      call gsp_options_init(opts)
      opts%backend = backends(b)
      opts%algorithm = sssp_algos(a)
      call gsp_sssp(g, 1, p, opts, stat=st)
      if (st == GSP_ERR_UNSUPPORTED .or. st == GSP_ERR_NO_DEVICE) cycle
      call expect_status(st, GSP_OK, "sssp " // gsp_algorithm_string(sssp_algos(a)))
      if (st /= GSP_OK) cycle
      ran = ran + 1
      call gsp_distances(p, 1, d)
      call expect(all(d(1:4) == [0.0, 1.0, 3.0, 6.0]) .and. .not. ieee_is_finite(d(5)), "sssp distances")
      call gsp_path(p, 1, 4, path)
      call expect(size(path) == 4, "path length")
      if (size(path) == 4) call expect(all(path == [1, 2, 3, 4]), "path 1-based")
      call gsp_predecessors(p, 1, pred)
      call expect(all(pred(1:4) == [0, 1, 2, 3]), "predecessors 1-based")
      call gsp_info(p, info)
      call expect(info%backend == backends(b) .and. info%num_sources == 1 .and. info%has_paths == 1, "info")
      ! CUDA devices the run used: 0 on the CPU, at least 1 on CUDA
      call expect((info%num_devices == 0) .eqv. (info%backend == GSP_BACKEND_CPU), "info num_devices")
      if (sssp_algos(a) /= GSP_ALGO_AUTO) call expect(info%algorithm == sssp_algos(a), "info algorithm")
      call expect(len(gsp_device_name(info)) > 0, "device name")
      call gsp_destroy(p)
    end do
    do a = 1, size(apsp_algos)
      call gsp_options_init(opts)
      opts%backend = backends(b)
      opts%algorithm = apsp_algos(a)
      call gsp_apsp(g, p, opts, stat=st)
      if (st == GSP_ERR_UNSUPPORTED .or. st == GSP_ERR_NO_DEVICE) cycle
      call expect_status(st, GSP_OK, "apsp " // gsp_algorithm_string(apsp_algos(a)))
      if (st /= GSP_OK) cycle
      ran = ran + 1
      call expect(gsp_num_sources(p) == n .and. gsp_source(p, 2) == 2, "apsp sources")
      call gsp_distances(p, 2, d)
      call expect(all(d(2:4) == [0.0, 2.0, 5.0]), "apsp distances")
      call gsp_path(p, 2, 4, path)
      call expect(all(path == [2, 3, 4]), "apsp path")
      call gsp_destroy(p)
    end do
  end do
  call expect(ran > 2, "some algorithms ran")

  ! Run info stages (doc/run-info.md): the CPU Floyd-Warshall times its set-up,
  ! k-steps, predecessor pass (with paths only) and copy into the rows; they are
  ! parts of seconds.
  do b = 0, 1
    call gsp_options_init(opts)
    opts%backend = GSP_BACKEND_CPU
    opts%algorithm = GSP_APSP_FLOYD_WARSHALL
    if (b == 1) opts%flags = GSP_NO_PATHS
    call gsp_apsp(g, p, opts)
    call gsp_info(p, info)
    call expect(info%setup_seconds > 0 .and. info%compute_seconds > 0 .and. info%copy_seconds > 0, "stages")
    call expect((info%paths_seconds > 0) .eqv. (b == 0), "paths stage")
    call expect(info%setup_seconds + info%compute_seconds + info%copy_seconds + info%paths_seconds <= &
                info%seconds * 1.001_c_double + 1e-6_c_double, "stages within seconds")
    call gsp_destroy(p)
  end do

  ! APSP from chosen sources, distances only
  call gsp_options_init(opts)
  opts%flags = GSP_NO_PATHS
  opts%num_threads = 1
  call gsp_apsp(g, p, opts, sources=[3, 1])
  call expect(gsp_source(p, 1) == 3 .and. gsp_source(p, 2) == 1, "apsp chosen sources")
  call gsp_path(p, 1, 4, path, stat=st)
  call expect_status(st, GSP_ERR_UNSUPPORTED, "path without paths")
  call gsp_distances(p, 2, d, stat=st)
  call expect_status(st, GSP_ERR_INVALID_ARGUMENT, "not a source")
  call gsp_destroy(p)

  ! errors
  call gsp_graph_from_arcs(g2, 2, [1], [9], [1.0_c_float], stat=st)
  call expect_status(st, GSP_ERR_INVALID_GRAPH, "bad vertex id")
  call expect(.not. gsp_is_valid(g2), "failed graph is not valid")
  call gsp_sssp(g, 99, p, stat=st)
  call expect_status(st, GSP_ERR_INVALID_ARGUMENT, "bad source")
  call gsp_sssp(g, 1, p)
  call gsp_path(p, 1, 5, path, stat=st)
  call expect_status(st, GSP_ERR_NO_PATH, "no path")
  call gsp_graph_read(g2, "/nonexistent/g.gr", stat=st)
  call expect_status(st, GSP_ERR_IO, "missing file")
  call expect(index(gsp_error_message(), "nonexistent") > 0, "IO message names the file")

  ! files, 1-based CSR, integer weights, undirected
  tmp = "gsp_fortran_test.gr"
  call gsp_graph_write(g, trim(tmp))
  call gsp_graph_read(g2, trim(tmp), format=GSP_FORMAT_DIMACS, weight_type=GSP_I32)
  call expect(gsp_num_vertices(g2) == n .and. gsp_weight_type(g2) == GSP_I32, "file roundtrip")
  call gsp_destroy(g2)
  open(unit=10, file=trim(tmp), status="old")
  close(10, status="delete")
  call gsp_graph_from_csr(g2, 3, [1, 2, 3, 3], [2, 3], [0.5_c_float, 0.25_c_float])
  call gsp_destroy(p)
  call gsp_sssp(g2, 1, p)
  call gsp_distances(p, 1, d)
  call expect(all(d == [0.0, 0.5, 0.75]), "csr")
  call gsp_destroy(p)
  call gsp_destroy(g2)
  ! offsets of kind c_int64_t (graphs of 2^31 arcs and more)
  call gsp_graph_from_csr(g2, 3, [1_c_int64_t, 2_c_int64_t, 3_c_int64_t, 3_c_int64_t], [2, 3], &
                          [0.5_c_float, 0.25_c_float])
  call expect(gsp_num_edges(g2) == 2_c_int64_t, "csr, 64-bit offsets")
  call gsp_sssp(g2, 1, p)
  call gsp_distances(p, 1, d)
  call expect(all(d == [0.0, 0.5, 0.75]), "csr, 64-bit offsets: distances")
  call gsp_destroy(p)
  call gsp_destroy(g2)
  call gsp_graph_from_arcs(gi, 3, [1, 2], [2, 3], [4_c_int32_t, 5_c_int32_t], flags=GSP_GRAPH_UNDIRECTED)
  call gsp_sssp(gi, 3, p)
  call gsp_distances(p, 3, di)
  call expect(all(di == [9, 5, 0]), "int undirected")
  call gsp_distances(p, 3, d, stat=st)
  call expect_status(st, GSP_ERR_INVALID_ARGUMENT, "wrong distance kind")
  call gsp_destroy(gi)
  call gsp_distances(p, 3, di)
  call expect(all(di == [9, 5, 0]), "result outlives graph")
  call gsp_destroy(p)

  ! many-to-many tables: cell (i, j) is from sources(i) to targets(j), all 1-based
  ran = 0
  do b = 1, nb
    do a = 1, size(apsp_algos)
      call gsp_options_init(opts)
      opts%backend = backends(b)
      opts%algorithm = apsp_algos(a)
      call gsp_table(g, [2, 1], [4, 1, 4], tb, opts, stat=st)
      if (st == GSP_ERR_UNSUPPORTED .or. st == GSP_ERR_NO_DEVICE) cycle
      call expect_status(st, GSP_OK, "table " // gsp_algorithm_string(apsp_algos(a)))
      if (st /= GSP_OK) cycle
      ran = ran + 1
      call expect(gsp_num_sources(tb) == 2 .and. gsp_num_targets(tb) == 3, "table size")
      call gsp_distances(tb, dm)
      call expect(all(shape(dm) == [2, 3]), "table shape")
      if (all(shape(dm) == [2, 3])) call expect(dm(1, 1) == 5.0 .and. .not. ieee_is_finite(dm(1, 2)) .and. &
          dm(1, 3) == 5.0 .and. all(dm(2, :) == [6.0, 0.0, 6.0]), "table distances")
      call gsp_path(tb, 2, 3, path)
      call expect(size(path) == 4, "table path length")
      if (size(path) == 4) call expect(all(path == [1, 2, 3, 4]), "table path 1-based")
      call gsp_path(tb, 1, 2, path, stat=st)
      call expect_status(st, GSP_ERR_NO_PATH, "table cell without a path")
      call gsp_info(tb, info)
      call expect(info%backend == backends(b) .and. info%num_sources == 2 .and. info%has_paths == 1, "table info")
      call gsp_destroy(tb)
    end do
  end do
  call expect(ran > 1, "some table algorithms ran")

  ! tables: distances only, one cell, errors, an empty list, integer weights
  call gsp_options_init(opts)
  opts%flags = GSP_NO_PATHS
  call gsp_table(g, [1, 3], [4, 5], tb, opts)
  call gsp_distance(tb, 2, 1, d1)
  call expect(d1 == 3.0, "table cell")
  call gsp_distance(tb, 1, 2, d1)
  call expect(.not. ieee_is_finite(d1), "table cell unreachable")
  call gsp_distance(tb, 3, 1, d1, stat=st)
  call expect_status(st, GSP_ERR_INVALID_ARGUMENT, "table cell out of range")
  call gsp_path(tb, 1, 1, path, stat=st)
  call expect_status(st, GSP_ERR_UNSUPPORTED, "table path without paths")
  call gsp_distances(tb, dmi, stat=st)
  call expect_status(st, GSP_ERR_INVALID_ARGUMENT, "table distances of the wrong kind")
  call gsp_destroy(tb)
  call gsp_table(g, [1], [4, 6], tb, stat=st)
  call expect_status(st, GSP_ERR_INVALID_ARGUMENT, "table target out of range")
  call expect(.not. gsp_is_valid(tb), "failed table is not valid")
  call gsp_table(g, [integer ::], [1, 2], tb)
  call gsp_distances(tb, dm)
  call expect(all(shape(dm) == [0, 2]), "table without sources")
  call gsp_destroy(tb)
  call gsp_graph_from_arcs(gi, 3, [1, 2], [2, 3], [4_c_int32_t, 5_c_int32_t])
  call gsp_table(gi, [3, 1], [1, 3], tb)
  call gsp_destroy(gi)
  call gsp_distances(tb, dmi)
  call expect(dmi(1, 1) == GSP_I32_INF .and. dmi(1, 2) == 0 .and. all(dmi(2, :) == [0, 9]), &
              "integer table outlives its graph")
  call gsp_destroy(tb)
  call gsp_destroy(tb)
  call gsp_distances(tb, dmi, stat=st)
  call expect_status(st, GSP_ERR_INVALID_ARGUMENT, "destroyed table")

  ! ---------------------------------------------------------------- GSP_F64
  ! f64 weights no real(c_float) holds: 0.1 + 0.2 is 0.30000000000000004 in double only.
  call expect(GSP_F64 == 3, "GSP_F64")
  call gsp_graph_from_arcs(g64, n, src, dst, w64)
  call expect(gsp_weight_type(g64) == GSP_F64 .and. gsp_num_edges(g64) == 4, "f64 graph")
  ran = 0
  do b = 1, nb
    do a = 1, size(sssp_algos)
      call gsp_options_init(opts)
      opts%backend = backends(b)
      opts%algorithm = sssp_algos(a)
      call gsp_sssp(g64, 1, p, opts, stat=st)
      if (st == GSP_ERR_UNSUPPORTED .or. st == GSP_ERR_NO_DEVICE) cycle
      call expect_status(st, GSP_OK, "f64 sssp " // gsp_algorithm_string(sssp_algos(a)))
      if (st /= GSP_OK) cycle
      ran = ran + 1
      call gsp_distances(p, 1, d64)
      call expect(all(d64(1:4) == [0.0_c_double, 0.1_c_double, 0.1_c_double + 0.2_c_double, &
                                   0.1_c_double + 0.2_c_double + 0.4_c_double]) .and. .not. ieee_is_finite(d64(5)), &
                  "f64 distances " // gsp_algorithm_string(sssp_algos(a)))
      call gsp_distance(p, 1, 3, x64)
      call expect(x64 == 0.1_c_double + 0.2_c_double, "f64 distance")
      call gsp_path(p, 1, 4, path)
      call expect(size(path) == 4, "f64 path")
      call gsp_info(p, info)
      call expect(info%weight_type == GSP_F64, "f64 info")
      call gsp_distances(p, 1, d, stat=st)
      call expect_status(st, GSP_ERR_INVALID_ARGUMENT, "f32 distances of an f64 result")
      call gsp_destroy(p)
    end do
  end do
  call expect(ran > 1, "f64 ran")
  call gsp_apsp(g64, p)
  call gsp_distances(p, 2, d64)
  call expect(all(d64(2:4) == [0.0_c_double, 0.2_c_double, 0.2_c_double + 0.4_c_double]) .and. &
              .not. ieee_is_finite(d64(1)), "f64 apsp")
  call gsp_destroy(p)
  call gsp_table(g64, [2, 1], [4, 1], tb)
  call gsp_distances(tb, dm64)
  call expect(dm64(2, 1) == 0.1_c_double + 0.2_c_double + 0.4_c_double .and. dm64(1, 1) == 0.2_c_double + 0.4_c_double &
              .and. dm64(2, 2) == 0 .and. .not. ieee_is_finite(dm64(1, 2)), "f64 table")
  call gsp_distance(tb, 2, 1, x64)
  call expect(x64 == 0.1_c_double + 0.2_c_double + 0.4_c_double, "f64 table cell")
  call gsp_destroy(tb)
  call gsp_graph_from_csr(g2, n, [1, 3, 4, 5, 5, 5], [2, 4, 3, 4], [0.1_c_double, 5.0_c_double, 0.2_c_double, &
                          0.4_c_double])
  call gsp_sssp(g2, 1, p)
  call gsp_distances(p, 1, d64)
  call expect(gsp_weight_type(g2) == GSP_F64 .and. d64(3) == 0.1_c_double + 0.2_c_double, "f64 csr")
  call gsp_destroy(p)
  call gsp_destroy(g2)
  call gsp_graph_from_arcs(g2, n, src, dst, [1.0_c_double], stat=st)
  call expect_status(st, GSP_ERR_INVALID_ARGUMENT, "f64 weights and arcs differ")

  ! ---------------------------------------------------------------- limit
  call gsp_options_init(opts)
  call expect(.not. ieee_is_finite(opts%limit) .and. opts%limit > 0, "default limit is +Infinity")
  opts%limit = 3
  call gsp_sssp(g, 1, p, opts)
  call gsp_distances(p, 1, d)
  call expect(all(d(1:3) == [0.0, 1.0, 3.0]) .and. .not. ieee_is_finite(d(4)) .and. .not. ieee_is_finite(d(5)), &
              "limit 3: 6 is beyond it")
  call gsp_path(p, 1, 4, path, stat=st)
  call expect_status(st, GSP_ERR_NO_PATH, "path beyond the limit")
  call gsp_destroy(p)
  call gsp_table(g, [1, 3], [3, 4], tb, opts)
  call gsp_distances(tb, dm)
  call expect(dm(1, 1) == 3 .and. .not. ieee_is_finite(dm(1, 2)) .and. dm(2, 1) == 0 .and. dm(2, 2) == 3, "limit table")
  call gsp_destroy(tb)
  opts%limit = 0.3_c_double
  call gsp_sssp(g64, 1, p, opts)
  call gsp_distances(p, 1, d64)
  call expect(d64(2) == 0.1_c_double .and. .not. ieee_is_finite(d64(3)), "f64 limit compared in double")
  call gsp_destroy(p)
  opts%limit = -1
  call gsp_sssp(g, 1, p, opts, stat=st)
  call expect_status(st, GSP_ERR_INVALID_ARGUMENT, "negative limit")
  opts%limit = ieee_value(opts%limit, ieee_quiet_nan)
  call gsp_sssp(g, 1, p, opts, stat=st)
  call expect_status(st, GSP_ERR_INVALID_ARGUMENT, "NaN limit")

  ! ---------------------------------------------------------------- num_devices
  call gsp_options_init(opts)
  call expect(opts%num_devices == 0, "default num_devices is 0 (AUTO chooses)")
  opts%backend = GSP_BACKEND_CPU
  call gsp_sssp(g, 1, p, opts)
  call gsp_info(p, info)
  call expect(info%num_devices == 0, "a CPU run used no CUDA device")
  call gsp_destroy(p)
  opts%num_devices = -1
  call gsp_sssp(g, 1, p, opts, stat=st)
  call expect_status(st, GSP_ERR_INVALID_ARGUMENT, "negative num_devices")
  call gsp_options_init(opts)
  opts%num_devices = 2
  opts%cuda_stream = transfer(1_c_intptr_t, opts%cuda_stream)  ! a stream belongs to one device
  call gsp_sssp(g, 1, p, opts, stat=st)
  call expect_status(st, GSP_ERR_INVALID_ARGUMENT, "num_devices 2 with a stream")

  ! ---------------------------------------------------------------- run flags
  ! GSP_ROWS_ANY_ORDER concerns gsp_apsp_stream only: the other runs take it
  ! and ignore it; an unknown bit is refused.
  call expect(GSP_ROWS_ANY_ORDER == 2 .and. iand(GSP_ROWS_ANY_ORDER, GSP_NO_PATHS) == 0, "GSP_ROWS_ANY_ORDER")
  call gsp_options_init(opts)
  opts%backend = GSP_BACKEND_CPU
  opts%flags = ior(GSP_NO_PATHS, GSP_ROWS_ANY_ORDER)
  call gsp_apsp(g, p, opts, sources=[1])
  call gsp_distances(p, 1, d)
  call expect(all(d(1:4) == [0.0, 1.0, 3.0, 6.0]), "apsp with GSP_ROWS_ANY_ORDER")
  call gsp_destroy(p)
  opts%flags = ior(GSP_ROWS_ANY_ORDER, 32)
  call gsp_apsp(g, p, opts, sources=[1], stat=st)
  call expect_status(st, GSP_ERR_INVALID_ARGUMENT, "an unknown flag bit")

  ! ---------------------------------------------------------------- gsp_nearest
  ! Sources 3 and 1: vertex 4 is nearer to 3 (3) than to 1 (6); 5 is reached by none.
  ran = 0
  do b = 1, nb
    do a = 1, size(sssp_algos)
      call gsp_options_init(opts)
      opts%backend = backends(b)
      opts%algorithm = sssp_algos(a)
      call gsp_nearest(g, [3, 1], d, near, opts, npred, stat=st)
      if (st == GSP_ERR_UNSUPPORTED .or. st == GSP_ERR_NO_DEVICE) cycle
      call expect_status(st, GSP_OK, "nearest " // gsp_algorithm_string(sssp_algos(a)))
      if (st /= GSP_OK) cycle
      ran = ran + 1
      call expect(all(d(1:4) == [0.0, 1.0, 0.0, 3.0]) .and. .not. ieee_is_finite(d(5)), "nearest distances")
      call expect(all(near == [1, 1, 3, 3, 0]), "nearest sources, 1-based")
      call expect(all(npred == [0, 1, 0, 3, 0]), "nearest predecessors, 1-based")
    end do
  end do
  call expect(ran > 1, "nearest ran")
  call gsp_options_init(opts)
  opts%flags = GSP_NO_PATHS
  call gsp_nearest(g, [1, 3, 3], d, near, opts, npred)
  call expect(all(near == [1, 1, 3, 3, 0]) .and. .not. allocated(npred), "nearest without paths")
  call gsp_nearest(g, [1], d, near)
  call expect(all(d(1:4) == [0.0, 1.0, 3.0, 6.0]) .and. all(near == [1, 1, 1, 1, 0]), "nearest of one source")
  call gsp_options_init(opts)
  opts%limit = 1
  call gsp_nearest(g, [3, 1], d, near, opts, npred)
  call expect(all(near == [1, 1, 3, 0, 0]) .and. all(npred == [0, 1, 0, 0, 0]) .and. .not. ieee_is_finite(d(4)), &
              "nearest within a limit")
  call gsp_nearest(g64, [2, 4], d64, near)
  call expect(all(near == [0, 2, 2, 4, 0]) .and. d64(3) == 0.2_c_double .and. .not. ieee_is_finite(d64(1)), &
              "nearest f64")
  call gsp_graph_from_arcs(gi, 4, [1, 2, 4], [2, 3, 3], [4_c_int32_t, 5_c_int32_t, 7_c_int32_t])
  call gsp_nearest(gi, [1, 4], di, near)
  call expect(all(di == [0, 4, 7, 0]) .and. all(near == [1, 1, 4, 4]), "nearest i32")
  call gsp_nearest(gi, [2], di, near)
  call expect(di(1) == GSP_I32_INF .and. all(near == [0, 2, 2, 0]), "nearest i32 unreachable")
  call gsp_nearest(gi, [2], d, near, stat=st)
  call expect_status(st, GSP_ERR_INVALID_ARGUMENT, "nearest: kind of the distances")
  call gsp_destroy(gi)
  call gsp_nearest(g, [integer ::], d, near, stat=st)
  call expect_status(st, GSP_ERR_INVALID_ARGUMENT, "nearest without sources")
  call gsp_nearest(g, [1, n + 1], d, near, stat=st)
  call expect_status(st, GSP_ERR_INVALID_ARGUMENT, "nearest: source out of range")
  call gsp_options_init(opts)
  opts%algorithm = GSP_APSP_FLOYD_WARSHALL
  call gsp_nearest(g, [1], d, near, opts, stat=st)
  call expect_status(st, GSP_ERR_INVALID_ARGUMENT, "nearest: an all-pairs algorithm")
  call gsp_destroy(g64)
  call gsp_nearest(g64, [1], d64, near, stat=st)
  call expect_status(st, GSP_ERR_INVALID_ARGUMENT, "nearest on a destroyed graph")

  ! ---------------------------------------------------------------- road indexes
  ! A 6 x 7 road-like grid: runs with the index equal the same runs without it.
  call grid_arcs(6, 7, gsrc, gdst, gw)
  call gsp_graph_from_arcs(gg, 42, gsrc, gdst, gw)
  call gsp_index_create(ix, gg, num_threads=2, info=info)
  call expect(gsp_is_valid(ix) .and. info%seconds >= 0, "index built")
  call gsp_index_sizes(ix, nv, narcs, nshort)
  call expect(nv == 42 .and. narcs > 0 .and. nshort >= 0, "index sizes")
  do a = 1, 42, 5
    call gsp_options_init(opts)
    opts%backend = GSP_BACKEND_CPU
    call gsp_sssp(gg, a, p, opts)
    call gsp_distances(p, a, d)
    call gsp_destroy(p)
    call gsp_options_init(opts)
    call gsp_set_index(opts, ix)
    call gsp_sssp(gg, a, p, opts)
    call gsp_distances(p, a, d2)
    call expect(all(d2 == d), "index sssp equals sssp")
    call gsp_info(p, info)
    call expect(info%algorithm == GSP_CH, "index sssp: run info names GSP_CH")
    call gsp_path(p, a, 43 - a, path)
    call expect(path(1) == a .and. path(size(path)) == 43 - a, "index sssp path, 1-based")
    call gsp_destroy(p)
  end do
  call gsp_options_init(opts)
  call gsp_table(gg, [1, 10, 42, 10, 21], [42, 1, 14, 14, 7, 36], tb, opts)
  call gsp_distances(tb, dm)
  call gsp_destroy(tb)
  call gsp_set_index(opts, ix)
  opts%algorithm = GSP_CH
  call gsp_table(gg, [1, 10, 42, 10, 21], [42, 1, 14, 14, 7, 36], tb, opts)
  call gsp_distances(tb, dm2)
  call expect(all(shape(dm2) == [5, 6]), "index table shape")
  if (all(shape(dm2) == [5, 6])) call expect(all(dm2 == dm), "index table equals table")
  call gsp_path(tb, 1, 1, path)
  call expect(path(1) == 1 .and. path(size(path)) == 42, "index table path")
  call gsp_info(tb, info)
  call expect(info%algorithm == GSP_CH, "index table: run info names GSP_CH")
  call gsp_destroy(tb)
  call gsp_apsp(gg, p, opts, sources=[5, 1])
  call gsp_distances(p, 5, d2)
  call gsp_destroy(p)
  call gsp_sssp(gg, 5, p)
  call gsp_distances(p, 5, d)
  call gsp_destroy(p)
  call expect(all(d2 == d), "index apsp equals sssp")

  ! save, load; an index of another graph is refused, loaded or given to a run
  tmp = "gsp_fortran_test.gspi"
  call gsp_index_write(ix, trim(tmp))
  call gsp_index_read(ix2, gg, trim(tmp))
  call gsp_index_sizes(ix2, nv2, narcs2, nshort2)
  call expect(nv2 == nv .and. narcs2 == narcs .and. nshort2 == nshort, "index file roundtrip sizes")
  call gsp_options_init(opts)
  call gsp_set_index(opts, ix2)
  call gsp_table(gg, [1, 10, 42, 10, 21], [42, 1, 14, 14, 7, 36], tb, opts)
  call gsp_distances(tb, dm2)
  call expect(all(dm2 == dm), "loaded index table")
  call gsp_destroy(tb)
  call grid_arcs(5, 5, gsrc, gdst, gw)
  call gsp_graph_from_arcs(gother, 25, gsrc, gdst, gw)
  call gsp_index_read(ix3, gother, trim(tmp), stat=st)
  call expect_status(st, GSP_ERR_INVALID_ARGUMENT, "index of another graph, loaded")
  call gsp_sssp(gother, 1, p, opts, stat=st)
  call expect_status(st, GSP_ERR_INVALID_ARGUMENT, "index of another graph, given to a run")
  call gsp_destroy(gother)

  ! a file cut short: GSP_ERR_PARSE naming it; a missing one: GSP_ERR_IO
  inquire(file=trim(tmp), size=fsize)
  allocate(bytes(fsize))
  open(newunit=u, file=trim(tmp), access="stream", form="unformatted", status="old")
  read(u) bytes
  close(u, status="delete")
  tmp = "gsp_fortran_test_cut.gspi"
  open(newunit=u, file=trim(tmp), access="stream", form="unformatted", status="replace")
  write(u) bytes(1:fsize / 2)
  close(u)
  call gsp_index_read(ix3, gg, trim(tmp), stat=st)
  call expect_status(st, GSP_ERR_PARSE, "index file cut short")
  call expect(index(gsp_error_message(), "gsp_fortran_test_cut.gspi") > 0, "PARSE message names the file")
  call expect(.not. gsp_is_valid(ix3), "failed index is not valid")
  open(newunit=u, file=trim(tmp), status="old")
  close(u, status="delete")
  call gsp_index_read(ix3, gg, "/nonexistent/x.gspi", stat=st)
  call expect_status(st, GSP_ERR_IO, "missing index file")

  ! misuse: GSP_CH without an index, negative weights, a destroyed index
  call gsp_options_init(opts)
  opts%algorithm = GSP_CH
  call gsp_sssp(gg, 1, p, opts, stat=st)
  call expect_status(st, GSP_ERR_INVALID_ARGUMENT, "GSP_CH without an index")
  call gsp_graph_from_arcs(g2, 2, [1], [2], [-1.0_c_float])
  call gsp_index_create(ix3, g2, stat=st)
  call expect_status(st, GSP_ERR_NEGATIVE_WEIGHT, "index of negative weights")
  call gsp_destroy(g2)
  call gsp_destroy(ix)
  call gsp_destroy(ix)
  call expect(.not. gsp_is_valid(ix), "destroyed index")
  call gsp_set_index(opts, ix, stat=st)
  call expect_status(st, GSP_ERR_INVALID_ARGUMENT, "gsp_set_index of a destroyed index")
  call gsp_index_write(ix, "never.gspi", stat=st)
  call expect_status(st, GSP_ERR_INVALID_ARGUMENT, "gsp_index_write of a destroyed index")
  call gsp_index_sizes(ix, nv, stat=st)
  call expect_status(st, GSP_ERR_INVALID_ARGUMENT, "gsp_index_sizes of a destroyed index")
  call gsp_destroy(ix2)
  call gsp_destroy(gg)

  ! destroyed handles are refused
  call gsp_destroy(g)
  call gsp_destroy(g)
  call expect(gsp_num_vertices(g) == -1, "destroyed graph")
  call gsp_sssp(g, 1, p, stat=st)
  call expect_status(st, GSP_ERR_INVALID_ARGUMENT, "sssp on destroyed graph")
  call gsp_distances(p, 1, d, stat=st)
  call expect_status(st, GSP_ERR_INVALID_ARGUMENT, "destroyed result")

  if (failures > 0) then
    print '(i0,a)', failures, " failure(s)"
    error stop 1
  end if
  print '(a)', "fortran: all tests passed"
contains
  ! A rows x cols road-like grid (1-based ids): two-way streets of weight
  ! 2..6 and a faster two-way avenue (weight 1) along the middle row.
  subroutine grid_arcs(rows, cols, s, t, wt)
    integer, intent(in) :: rows, cols
    integer, allocatable, intent(out) :: s(:), t(:)
    real(c_float), allocatable, intent(out) :: wt(:)
    integer :: r, c, v, k, x
    allocate(s(4 * rows * cols), t(4 * rows * cols), wt(4 * rows * cols))
    k = 0
    do r = 0, rows - 1
      do c = 0, cols - 1
        v = r * cols + c + 1
        if (c + 1 < cols) then
          x = 2 + mod(r * 7 + c * 3, 5)
          if (r == rows / 2) x = 1
          call add_street(s, t, wt, k, v, v + 1, x)
        end if
        if (r + 1 < rows) call add_street(s, t, wt, k, v, v + cols, 2 + mod(r * 5 + c * 11, 5))
      end do
    end do
    s = s(1:k)
    t = t(1:k)
    wt = wt(1:k)
  end subroutine
  subroutine add_street(s, t, wt, k, v1, v2, x)
    integer, intent(inout) :: s(:), t(:), k
    real(c_float), intent(inout) :: wt(:)
    integer, intent(in) :: v1, v2, x
    s(k + 1:k + 2) = [v1, v2]
    t(k + 1:k + 2) = [v2, v1]
    wt(k + 1:k + 2) = real(x, c_float)
    k = k + 2
  end subroutine
  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      print '(2a)', "FAIL: ", what
      failures = failures + 1
    end if
  end subroutine
  subroutine expect_status(got, want, what)
    integer, intent(in) :: got, want
    character(len=*), intent(in) :: what
    if (got /= want) then
      print '(6a)', "FAIL: ", what, ": got ", gsp_status_string(got), " want ", gsp_status_string(want)
      print '(2a)', "      ", gsp_error_message()
      failures = failures + 1
    else if (want /= GSP_OK .and. len(gsp_error_message()) == 0) then
      print '(2a)', "FAIL: no message: ", what
      failures = failures + 1
    end if
  end subroutine
end program
