# The gsp command, driven from CTest: every subcommand, --help, --json, the
# exit codes (0 success, 1 failure, 2 bad usage) and the messages.
# Included by tests/CMakeLists.txt.
if(NOT TARGET gsp_cli)
  return()
endif()

set(_cli_dir ${CMAKE_CURRENT_BINARY_DIR}/cli)
file(MAKE_DIRECTORY ${_cli_dir})

# Runs gsp with ARGS ('|'-separated), checks the exit code, a regex on
# stdout+stderr and optionally a regex on a file the command wrote.
set(_cli_check ${CMAKE_CURRENT_BINARY_DIR}/gsp_cli_check.cmake)
file(WRITE ${_cli_check} [=[
string(REPLACE "|" ";" _args "${ARGS}")
execute_process(COMMAND ${GSP} ${_args} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
message("$ gsp ${_args}\n${_out}${_err}(exit ${_rc})")
if(NOT "${_rc}" STREQUAL "${EXPECT}")
  message(FATAL_ERROR "exit code ${_rc}, want ${EXPECT}")
endif()
if(NOT "${REGEX}" STREQUAL "" AND NOT "${_out}${_err}" MATCHES "${REGEX}")
  message(FATAL_ERROR "output does not match '${REGEX}'")
endif()
if(NOT "${FILE}" STREQUAL "")
  if(NOT EXISTS "${FILE}")
    message(FATAL_ERROR "${FILE} was not written")
  endif()
  file(READ "${FILE}" _text)
  if(NOT "${_text}" MATCHES "${FILE_REGEX}")
    message(FATAL_ERROR "${FILE} does not match '${FILE_REGEX}'")
  endif()
endif()
]=])

# gsp_cli_test(NAME EXPECT REGEX [FILE F FILE_REGEX R] [SETUP fixture] [NEEDS fixture...] ARGS ...)
function(gsp_cli_test name expect regex)
  cmake_parse_arguments(T "" "FILE;FILE_REGEX;SETUP" "NEEDS;ARGS" ${ARGN})
  string(REPLACE ";" "|" _joined "${T_ARGS}")
  add_test(NAME cli_${name}
    COMMAND ${CMAKE_COMMAND} -DGSP=$<TARGET_FILE:gsp_cli> "-DARGS=${_joined}" -DEXPECT=${expect}
            "-DREGEX=${regex}" "-DFILE=${T_FILE}" "-DFILE_REGEX=${T_FILE_REGEX}" -P ${_cli_check}
    WORKING_DIRECTORY ${_cli_dir})
  set_tests_properties(cli_${name} PROPERTIES LABELS "cpu;cli")
  if(T_SETUP)
    set_tests_properties(cli_${name} PROPERTIES FIXTURES_SETUP ${T_SETUP})
  endif()
  if(T_NEEDS)
    set_tests_properties(cli_${name} PROPERTIES FIXTURES_REQUIRED "${T_NEEDS}")
  endif()
endfunction()

# Runs gsp twice, with ARGS and with ARGS and then WITH ('|'-separated):
# both must exit 0 and print the same standard output (not empty), after
# the regex STRIP (if any) is removed from both.
set(_cli_same ${CMAKE_CURRENT_BINARY_DIR}/gsp_cli_same.cmake)
file(WRITE ${_cli_same} [=[
cmake_policy(SET CMP0007 NEW)
string(REPLACE "|" ";" _a "${ARGS}")
string(REPLACE "|" ";" _b "${ARGS}|${WITH}")
execute_process(COMMAND ${GSP} ${_a} RESULT_VARIABLE _rc_a OUTPUT_VARIABLE _out_a ERROR_VARIABLE _err_a)
execute_process(COMMAND ${GSP} ${_b} RESULT_VARIABLE _rc_b OUTPUT_VARIABLE _out_b ERROR_VARIABLE _err_b)
string(LENGTH "${_out_a}" _len_a)
string(LENGTH "${_out_b}" _len_b)
string(REPLACE "|" " " _shown_a "${ARGS}")
string(REPLACE "|" " " _shown_b "${ARGS}|${WITH}")
message("$ gsp ${_shown_a}\n${_err_a}(exit ${_rc_a}, ${_len_a} bytes on stdout)")
message("$ gsp ${_shown_b}\n${_err_b}(exit ${_rc_b}, ${_len_b} bytes on stdout)")
if(NOT "${_rc_a}" STREQUAL "0" OR NOT "${_rc_b}" STREQUAL "0")
  message(FATAL_ERROR "exit codes ${_rc_a} and ${_rc_b}, want 0 and 0")
endif()
if(_len_a EQUAL 0)
  message(FATAL_ERROR "no output to compare")
endif()
if(NOT "${STRIP}" STREQUAL "")
  string(REGEX REPLACE "${STRIP}" "" _out_a "${_out_a}")
  string(REGEX REPLACE "${STRIP}" "" _out_b "${_out_b}")
endif()
if(NOT "${_out_a}" STREQUAL "${_out_b}")
  string(REPLACE "\n" ";" _lines_a "${_out_a}")
  string(REPLACE "\n" ";" _lines_b "${_out_b}")
  list(LENGTH _lines_a _na)
  list(LENGTH _lines_b _nb)
  set(_i 0)
  while(_i LESS _na AND _i LESS _nb)
    list(GET _lines_a ${_i} _la)
    list(GET _lines_b ${_i} _lb)
    if(NOT "${_la}" STREQUAL "${_lb}")
      break()
    endif()
    math(EXPR _i "${_i} + 1")
  endwhile()
  math(EXPR _line "${_i} + 1")
  message(FATAL_ERROR "the outputs differ (${_na} and ${_nb} lines), first at line ${_line}:\n  ${_la}\n  ${_lb}")
endif()
message("same output")
]=])

# gsp_cli_same(NAME [STRIP regex] [NEEDS fixture...] ARGS ... WITH ...)
function(gsp_cli_same name)
  cmake_parse_arguments(T "" "STRIP" "NEEDS;ARGS;WITH" ${ARGN})
  string(REPLACE ";" "|" _args "${T_ARGS}")
  string(REPLACE ";" "|" _with "${T_WITH}")
  add_test(NAME cli_${name}
    COMMAND ${CMAKE_COMMAND} -DGSP=$<TARGET_FILE:gsp_cli> "-DARGS=${_args}" "-DWITH=${_with}" "-DSTRIP=${T_STRIP}"
            -P ${_cli_same}
    WORKING_DIRECTORY ${_cli_dir})
  set_tests_properties(cli_${name} PROPERTIES LABELS "cpu;cli")
  if(T_NEEDS)
    set_tests_properties(cli_${name} PROPERTIES FIXTURES_REQUIRED "${T_NEEDS}")
  endif()
endfunction()

file(WRITE ${_cli_dir}/bad.gr "c a bad arc on line 3\np sp 2 1\na 1 x 3\n")

# top level
gsp_cli_test(help 0 "usage: gsp COMMAND.*nearest FILE --sources LIST" ARGS --help)
gsp_cli_test(no_args 2 "usage: gsp COMMAND" ARGS)
gsp_cli_test(unknown_command 2 "unknown command 'frob'" ARGS frob)
gsp_cli_test(version 0 "gsp [0-9]+\\.[0-9]+\\.[0-9]+" ARGS --version)
foreach(sub generate info sssp apsp path table nearest index)
  gsp_cli_test(help_${sub} 0 "usage: gsp ${sub}" ARGS ${sub} --help)
endforeach()

# generate
gsp_cli_test(generate_grid 0 "wrote grid.gr: grid graph, 400 vertices, 1520 arcs" SETUP cli_grid
  FILE grid.co FILE_REGEX "v 400 19 19"
  ARGS generate grid --vertices 400 --seed 3 -o grid.gr --coords grid.co)
gsp_cli_test(generate_dag 0 "wrote dag.mtx" SETUP cli_dag FILE dag.mtx FILE_REGEX "%%MatrixMarket matrix coordinate integer general"
  ARGS generate dag --vertices 60 --seed 2 -o dag.mtx)
gsp_cli_test(generate_random 0 "4096 vertices, 24576 arcs" FILE random.txt FILE_REGEX "# vertices 4096"
  ARGS generate random --vertices 4096 --degree 6 --weights f32 -o random.txt)
gsp_cli_test(generate_rmat_json 0 "\"kind\": \"rmat\", \"vertices\": 1000, \"arcs\": 8000"
  ARGS generate rmat --vertices 1000 --degree 8 -o rmat.gr --json)
gsp_cli_test(generate_ring 0 "5 arcs" ARGS generate ring --vertices 5 -o ring.gr)
gsp_cli_test(generate_complete 0 "20 vertices, 380 arcs" ARGS generate complete --vertices 20 -o complete.gr)
gsp_cli_test(generate_bad_kind 2 "unknown KIND 'star'" ARGS generate star --vertices 5 -o x.gr)
gsp_cli_test(generate_no_out 2 "missing -o FILE" ARGS generate ring --vertices 5)
gsp_cli_test(generate_bad_number 2 "--vertices: expected an integer" ARGS generate ring --vertices ten -o x.gr)
gsp_cli_test(generate_gz_refused 1 "uncompressed" ARGS generate ring --vertices 5 -o x.gr.gz)

# info
gsp_cli_test(info 0 "vertices: +400.*arcs: +1520.*weak components: +1" NEEDS cli_grid ARGS info grid.gr)
gsp_cli_test(info_json 0 "\"vertices\": 400, \"arcs\": 1520, \"weight_type\": \"i32\"" NEEDS cli_grid
  ARGS info grid.gr --json)
gsp_cli_test(info_negative 0 "negative" NEEDS cli_dag ARGS info dag.mtx --weights i32)
gsp_cli_test(info_parse_error 1 "bad.gr:3: expected a head vertex id in 1..2, got 'x'" ARGS info bad.gr)
gsp_cli_test(info_missing_file 1 "cannot open 'missing.gr': No such file or directory" ARGS info missing.gr)

# sssp
gsp_cli_test(sssp 0 "reached: +400 of 400 vertices from 0" NEEDS cli_grid ARGS sssp grid.gr --source 0)
gsp_cli_test(sssp_to 0 "distance: +0 -> 399 = [0-9]+.*path: +[0-9]+ vertices: 0 -> .* -> 399" NEEDS cli_grid
  ARGS sssp grid.gr --source 0 --to 399 --algorithm dijkstra --backend cpu)
gsp_cli_test(sssp_check 0 "check: +OK: all 400 distances match the CPU dijkstra" NEEDS cli_grid
  ARGS sssp grid.gr --source 7 --algorithm delta-stepping --check)
gsp_cli_test(sssp_check_negative 0 "check: +OK.*bellman-ford" NEEDS cli_dag ARGS sssp dag.mtx --source 0 --check)
gsp_cli_test(sssp_out 0 "wrote: +sssp.txt" NEEDS cli_grid FILE sssp.txt FILE_REGEX "\n0 0 -1\n.*\n399 [0-9]+ [0-9]+\n"
  ARGS sssp grid.gr --source 0 --out sssp.txt)
gsp_cli_test(sssp_json 0 "\"source\": 3, \"algorithm\": \"[a-z-]+\", \"backend\": \"(cpu|cuda)\".*\"path\": \\[3, " NEEDS cli_grid
  ARGS sssp grid.gr --source 3 --to 10 --json)
gsp_cli_test(sssp_stages 0 "run: +dijkstra on cpu \\(CPU \\(1 thread\\)\\), [0-9.]+ s; compute [0-9.]+ s\n" NEEDS cli_grid
  ARGS sssp grid.gr --source 0 --algorithm dijkstra --backend cpu)
gsp_cli_test(sssp_stages_json 0 "\"stages\": {\"setup\": 0.000000, \"compute\": [0-9.]+, \"copy\": 0.000000, \"paths\": 0.000000}"
  NEEDS cli_grid ARGS sssp grid.gr --source 0 --algorithm dijkstra --backend cpu --json)
gsp_cli_test(sssp_quiet 0 "^$" NEEDS cli_grid ARGS sssp grid.gr --source 0 --quiet)
gsp_cli_test(sssp_no_source 2 "missing --source" NEEDS cli_grid ARGS sssp grid.gr)
gsp_cli_test(sssp_bad_source 2 "--source 400: out of range, the graph has 400 vertices" NEEDS cli_grid
  ARGS sssp grid.gr --source 400)
gsp_cli_test(sssp_bad_algorithm 2 "unknown algorithm 'fastest'; known: auto, dijkstra" NEEDS cli_grid
  ARGS sssp grid.gr --source 0 --algorithm fastest)
gsp_cli_test(sssp_bad_backend 2 "--backend: expected cpu, cuda or auto, got 'tpu'" NEEDS cli_grid
  ARGS sssp grid.gr --source 0 --backend tpu)
gsp_cli_test(sssp_unknown_option 2 "^gsp sssp: unknown option '--sauce' for 'gsp sssp'; see 'gsp sssp --help'\n$"
  NEEDS cli_grid ARGS sssp grid.gr --sauce 0)
gsp_cli_test(sssp_usage_hint 2 "missing --source VERTEX\nsee 'gsp sssp --help'\n$" NEEDS cli_grid ARGS sssp grid.gr)
gsp_cli_test(sssp_out_stdout 0 "# gsp sssp grid.gr --source 0: vertex distance predecessor\n0 0 -1\n.*reached: " NEEDS cli_grid
  ARGS sssp grid.gr --source 0 --out -)
gsp_cli_test(sssp_out_stdout_json 2 "--json and --out - both write to standard output" NEEDS cli_grid
  ARGS sssp grid.gr --source 0 --out - --json)
gsp_cli_test(sssp_quiet_check 0 "^$" NEEDS cli_grid ARGS sssp grid.gr --source 0 --check -q)
gsp_cli_test(sssp_negative_dijkstra 1 "GSP_ERR_NEGATIVE_WEIGHT" NEEDS cli_dag
  ARGS sssp dag.mtx --source 0 --algorithm dijkstra)
if(NOT GSP_WITH_CUDA)
  gsp_cli_test(sssp_no_cuda 1 "GSP_ERR_NO_DEVICE" NEEDS cli_grid ARGS sssp grid.gr --source 0 --backend cuda)
endif()

# apsp
gsp_cli_test(apsp_out 0 "6 sources.*reachable: +2400 of 2400 pairs" NEEDS cli_grid FILE apsp.txt
  FILE_REGEX "\n0: 0 [0-9]+ .*\n7: [0-9]+ "
  ARGS apsp grid.gr --sources 0-4,7 --out apsp.txt)
gsp_cli_test(apsp_all_json 0 "\"sources\": 400, .*\"reachable_pairs\": 160000" NEEDS cli_grid
  ARGS apsp grid.gr --algorithm floyd-warshall --backend cpu --json)
gsp_cli_test(apsp_stages 0 "run: +floyd-warshall on cpu, 400 sources, [0-9.]+ s; set-up [0-9.]+ s, compute [0-9.]+ s, copy [0-9.]+ s\n"
  NEEDS cli_grid ARGS apsp grid.gr --algorithm floyd-warshall --backend cpu)
gsp_cli_test(apsp_stages_json 0 "\"seconds\": [0-9.]+, \"stages\": {\"setup\": [0-9.]+, \"compute\": [0-9.]+, \"copy\": [0-9.]+, \"paths\": 0.000000}, \"reachable_pairs\""
  NEEDS cli_grid ARGS apsp grid.gr --algorithm floyd-warshall --backend cpu --json)
gsp_cli_test(apsp_negative 0 "reachable:" NEEDS cli_dag ARGS apsp dag.mtx --algorithm johnson)
gsp_cli_test(apsp_auto_names_algorithm 0 "run: +(heap|floyd-warshall|johnson|minplus|task-parallel|batched-delta-stepping|spmm) on (cpu|cuda), 400 sources"
  NEEDS cli_grid ARGS apsp grid.gr)
gsp_cli_test(apsp_auto_json 0 "\"algorithm\": \"(heap|floyd-warshall|johnson|minplus|task-parallel|batched-delta-stepping|spmm)\"" NEEDS cli_grid
  ARGS apsp grid.gr --sources 0-9 --json)
gsp_cli_test(apsp_out_stdout 0 "# gsp apsp grid.gr: 2 sources x 400 vertices.*\n0: 0 [0-9]+ .*\n5: " NEEDS cli_grid
  ARGS apsp grid.gr --sources 0,5 --out - --quiet)
gsp_cli_test(apsp_bad_sources 2 "--sources: expected an integer in 0..399, got '500'" NEEDS cli_grid
  ARGS apsp grid.gr --sources 1,500)

# path
gsp_cli_test(path_svg 0 "path: +[0-9]+ vertices: 0 -> .*wrote: +map.svg" NEEDS cli_grid FILE map.svg
  FILE_REGEX "^<\\?xml.*<svg xmlns=\"http://www.w3.org/2000/svg\".*<polyline.*</svg>\n$"
  ARGS path grid.gr --from 0 --to 399 --svg map.svg --coords grid.co)
gsp_cli_test(path_svg_needs_coords 2 "--svg needs --coords" NEEDS cli_grid ARGS path grid.gr --from 0 --to 1 --svg m.svg)
gsp_cli_test(path_bad_coords 1 "missing.co" NEEDS cli_grid
  ARGS path grid.gr --from 0 --to 1 --svg m.svg --coords missing.co)
gsp_cli_test(path_none 1 "no path from 10 to 0" NEEDS cli_dag ARGS path dag.mtx --from 10 --to 0)
gsp_cli_test(path_no_to 2 "missing --to" NEEDS cli_grid ARGS path grid.gr --from 0)

# table: 0 -> 1 -> 2 -> 3 (weights 1, 2, 3) and a longer 0 -> 3 (10); vertex 4
# is isolated. Rows are sources, columns targets, in the order given.
file(WRITE ${_cli_dir}/table.txt "# vertices 5\n0 1 1\n1 2 2\n2 3 3\n0 3 10\n")
file(WRITE ${_cli_dir}/table_ids.txt "# targets\n3 0\n\n4 # isolated\n")
file(WRITE ${_cli_dir}/table_none.txt "# nothing but comments\n\n")
file(WRITE ${_cli_dir}/table_bad.txt "1\n2 x\n")
file(WRITE ${_cli_dir}/table_cycle.txt "0 1 1\n1 0 -2\n")
gsp_cli_test(table 0 "run: +[a-z-]+ on (cpu|cuda).*reachable: +3 of 6 pairs \\(2 sources x 3 targets\\)\nfrom.to +3 +4 +0\n0 +6 +inf +0\n1 +5 +inf +inf\n$"
  ARGS table table.txt --sources 0,1 --targets 3,4,0)
foreach(_alg floyd-warshall johnson heap minplus)
  gsp_cli_test(table_${_alg} 0 "^from.to +3 +4 +0\n0 +6 +inf +0\n1 +5 +inf +inf\n$"
    ARGS table table.txt --sources 0,1 --targets 3,4,0 --algorithm ${_alg} --backend cpu --quiet)
endforeach()
gsp_cli_test(table_repeats_and_ranges 0 "^from.to +0 +0 +3\n2 +inf +inf +3\n0 +0 +0 +6\n1 +inf +inf +5\n2 +inf +inf +3\n$"
  ARGS table table.txt --sources 2,0-2 --targets 0,0,3 -q)
gsp_cli_test(table_paths 0 "path 0 -> 3: distance 6, 4 vertices: 0 -> 1 -> 2 -> 3\npath 0 -> 4: no path\n$"
  ARGS table table.txt --sources 0 --targets 3,4 --paths)
gsp_cli_test(table_csv 0 "^source/target,3,4\n1,5,inf\n0,6,inf\n$" ARGS table table.txt --sources 1,0 --targets 3,4 --csv -q)
gsp_cli_test(table_csv_summary 0 "reachable: +2 of 2 pairs" ARGS table table.txt --sources 1,0 --targets 3 --csv)
gsp_cli_test(table_csv_paths 0 "^source,target,distance,path\n0,2,3,0 1 2\n0,4,inf,\n$"
  ARGS table table.txt --sources 0 --targets 2,4 --csv --paths -q)
gsp_cli_test(table_json 0 "\"sources\": \\[0\\], \"targets\": \\[3, 4\\], \"reachable_pairs\": 1, \"distances\": \\[\\[6, null\\]\\], \"paths\": \\[\\[\\[0, 1, 2, 3\\], null\\]\\]}"
  ARGS table table.txt --sources 0 --targets 3,4 --paths --json)
gsp_cli_test(table_ids_file 0 "^from.to +3 +0 +4\n0 +6 +0 +inf\n$" ARGS table table.txt --sources 0 --targets @table_ids.txt -q)
gsp_cli_test(table_grid 0 "reachable: +6 of 6 pairs" NEEDS cli_grid ARGS table grid.gr --sources 0,7 --targets 5,10,399)
gsp_cli_test(table_bad_target 2 "--targets: expected an integer in 0..4, got '5'" ARGS table table.txt --sources 0 --targets 3,5)
gsp_cli_test(table_bad_source 2 "--sources: expected an integer in 0..4, got '-1'" ARGS table table.txt --sources=-1 --targets 3)
gsp_cli_test(table_no_targets 2 "missing --targets LIST\nsee 'gsp table --help'" ARGS table table.txt --sources 0)
gsp_cli_test(table_no_sources 2 "missing --sources LIST" ARGS table table.txt --targets 0)
gsp_cli_test(table_empty_list 2 "--targets: the list is empty" ARGS table table.txt --sources 0 --targets=)
gsp_cli_test(table_empty_file 2 "--sources: 'table_none.txt' lists no vertices" ARGS table table.txt --sources @table_none.txt --targets 0)
gsp_cli_test(table_bad_file 2 "--targets table_bad.txt:2: expected an integer in 0..4, got 'x'"
  ARGS table table.txt --sources 0 --targets @table_bad.txt)
gsp_cli_test(table_missing_file 1 "cannot open 'missing.txt': No such file or directory"
  ARGS table table.txt --sources 0 --targets @missing.txt)
gsp_cli_test(table_csv_json 2 "--csv and --json both choose the output" ARGS table table.txt --sources 0 --targets 1 --csv --json)
gsp_cli_test(table_sssp_algorithm 1 "table failed: GSP_ERR_(INVALID_ARGUMENT|UNSUPPORTED)"
  ARGS table table.txt --sources 0 --targets 1 --algorithm dijkstra)
gsp_cli_test(table_negative_cycle 1 "table failed: GSP_ERR_NEGATIVE_CYCLE" ARGS table table_cycle.txt --sources 0 --targets 1)
# --csv --paths runs the sources in groups of at most 2^16 cells, each
# group's lines written before the next group runs: 600 x 600 cells on a
# generated grid are 6 runs of at most 109 sources; every line comes, and a
# cell of the second group equals the same cell run alone.
add_test(NAME cli_table_csv_paths_grouped
  COMMAND sh -c "set -e; G=$<TARGET_FILE:gsp_cli>; $G generate grid --vertices 600 --seed 4 -o grouped.gr -q; \
$G table grouped.gr --sources 0-599 --targets 0-599 --csv --paths 2>grouped.err >grouped.csv; \
grep -q '(6 runs of at most 109 sources' grouped.err; test $(wc -l <grouped.csv) -eq 360001; \
$G table grouped.gr --sources 599 --targets 0 --csv --paths -q | tail -n 1 >grouped_one.csv; \
grep -qxF -f grouped_one.csv grouped.csv; echo grouped: ok"
  WORKING_DIRECTORY ${_cli_dir})
set_tests_properties(cli_table_csv_paths_grouped PROPERTIES LABELS "cpu;cli" PASS_REGULAR_EXPRESSION "grouped: ok")

if(NOT GSP_WITH_CUDA)
  gsp_cli_test(table_no_cuda 1 "GSP_ERR_NO_DEVICE" ARGS table table.txt --sources 0 --targets 1 --backend cuda)
endif()

# --weights f64: doubles read and printed exactly (%.17g), every command.
# 0.1 + 0.2 is 0.30000000000000004 in double (0.3 in float), 1e39 is beyond
# float (its line, 4, is named when read as f32) and 1e-300 below it.
file(WRITE ${_cli_dir}/table64.txt "# vertices 5\n0 1 0.1\n1 2 0.2\n2 3 1e39\n0 3 1e300\n3 4 1e-300\n")
gsp_cli_test(f64_sssp_out 0 "^# gsp sssp table64.txt --source 0: vertex distance predecessor\n0 0 -1\n1 0.10000000000000001 0\n2 0.30000000000000004 1\n3 9.9999999999999994e\\+38 2\n4 9.9999999999999994e\\+38 3\n$"
  ARGS sssp table64.txt --source 0 --weights f64 --out - -q)
gsp_cli_test(f64_as_f32 1 "cannot load graph: GSP_ERR_PARSE: table64.txt:4: expected a weight in the float range, got '1e39'"
  ARGS sssp table64.txt --source 0 --weights f32)
gsp_cli_test(f64_sssp_check 0 "farthest 3 at distance 9.9999999999999994e\\+38\n.*check: +OK: all 5 distances match"
  ARGS sssp table64.txt --source 0 --weights f64 --algorithm delta-stepping --check)
gsp_cli_test(f64_path 0 "distance: +0 -> 2 = 0.30000000000000004\npath: +3 vertices: 0 -> 1 -> 2"
  ARGS path table64.txt --from 0 --to 2 --weights f64)
gsp_cli_test(f64_sssp_json 0 "\"distance\": 0.30000000000000004, \"path\": \\[0, 1, 2\\]"
  ARGS sssp table64.txt --source 0 --to 2 --weights f64 --json)
gsp_cli_test(f64_table_csv 0 "^source/target,2,3,4\n0,0.30000000000000004,9.9999999999999994e\\+38,9.9999999999999994e\\+38\n1,0.20000000000000001,"
  ARGS table table64.txt --sources 0,1 --targets 2,3,4 --weights f64 --csv -q)
gsp_cli_test(f64_table_json 0 "\"distances\": \\[\\[0.20000000000000001, null\\]\\]"
  ARGS table table64.txt --sources 1 --targets 2,0 --weights f64 --json)
gsp_cli_test(f64_apsp 0 "\n0: 0 0.10000000000000001 0.30000000000000004 9.9999999999999994e\\+38 9.9999999999999994e\\+38\n"
  ARGS apsp table64.txt --weights f64 --out - -q)
gsp_cli_test(f64_apsp_json 0 "\"reachable_pairs\": 15, \"longest\": 9.9999999999999994e\\+38"
  ARGS apsp table64.txt --weights f64 --json)
gsp_cli_test(f64_info 0 "weight type: +f64\n.*weights: +1e-300 .. 1.0000000000000001e\\+300"
  ARGS info table64.txt --weights f64)
gsp_cli_test(f64_info_json 0 "\"weight_type\": \"f64\".*\"weight\": {\"min\": 1e-300, \"max\": 1.0000000000000001e\\+300}"
  ARGS info table64.txt --weights f64 --json)
gsp_cli_test(f64_bad_weights 2 "--weights: expected auto, f32, i32 or f64, got 'f16'"
  ARGS info table64.txt --weights f16)
gsp_cli_test(generate_f64 0 "wrote r64.mtx: random graph, 50 vertices, 300 arcs, f64 weights" FILE r64.mtx
  FILE_REGEX "^%%MatrixMarket matrix coordinate real general\n" ARGS generate random --vertices 50 --weights f64 -o r64.mtx)
gsp_cli_test(generate_bad_weights 2 "--weights: expected i32, f32 or f64, got 'f16'"
  ARGS generate ring --vertices 5 --weights f16 -o x.gr)

# --limit D (gsp_options.limit): vertices farther than D are 'inf', the rest exact.
gsp_cli_test(limit_sssp 0 "^# gsp sssp table.txt --source 0: vertex distance predecessor\n0 0 -1\n1 1 0\n2 3 1\n3 inf -1\n4 inf -1\n$"
  ARGS sssp table.txt --source 0 --limit 3 --out - -q)
gsp_cli_test(limit_sssp_check 0 "reached: +3 of 5 vertices from 0.*check: +OK"
  ARGS sssp table.txt --source 0 --limit 3.5 --algorithm bellman-ford --check)
gsp_cli_test(limit_table 0 "^from.to +3 +4 +0\n0 +inf +inf +0\n1 +5 +inf +inf\n$"
  ARGS table table.txt --sources 0,1 --targets 3,4,0 --limit 5 -q)
gsp_cli_test(limit_apsp 0 "\n0: 0 1 3 inf inf\n1: inf 0 2 5 inf\n2: inf inf 0 3 inf\n"
  ARGS apsp table.txt --limit 5 --out - -q)
gsp_cli_test(limit_f64 0 "\n2 0.30000000000000004 1\n3 inf -1\n"
  ARGS sssp table64.txt --source 0 --weights f64 --limit 0.30000000000000004 --out - -q)
gsp_cli_test(limit_inf 0 "\n3 6 2\n" ARGS sssp table.txt --source 0 --limit inf --out - -q)
gsp_cli_test(limit_bad 2 "--limit: expected a non-negative number, got '-1'" ARGS sssp table.txt --source 0 --limit=-1)
gsp_cli_test(limit_negative_weights 1 "GSP_ERR_NEGATIVE_WEIGHT" ARGS sssp table_cycle.txt --source 0 --limit 5)
gsp_cli_test(limit_not_for_path 2 "unknown option '--limit' for 'gsp path'" ARGS path table.txt --from 0 --to 3 --limit 5)

# --devices N (gsp_options.num_devices): CUDA devices a run may use (0 auto);
# a bad value is a usage error, the CPU ignores it (run info: 0 devices).
foreach(_sub apsp table sssp)
  gsp_cli_test(devices_help_${_sub} 0 "--devices N +CUDA devices" ARGS ${_sub} --help)
endforeach()
gsp_cli_test(devices_negative 2 "^gsp apsp: --devices: expected an integer in 0..4096, got '-1'\nsee 'gsp apsp --help'\n$"
  ARGS apsp table.txt --devices -1)
gsp_cli_test(devices_negative_table 2 "--devices: expected an integer in 0..4096, got '-1'"
  ARGS table table.txt --sources 0 --targets 3 --devices=-1)
gsp_cli_test(devices_negative_sssp 2 "--devices: expected an integer in 0..4096, got '-1'"
  ARGS sssp table.txt --source 0 --devices -1)
gsp_cli_test(devices_not_a_number 2 "--devices: expected an integer in 0..4096, got 'two'"
  ARGS apsp table.txt --devices two)
gsp_cli_test(devices_no_value 2 "option --devices needs a value" ARGS apsp table.txt --devices)
gsp_cli_test(devices_cpu_apsp 0 "^# gsp apsp table.txt: 5 sources x 5 vertices, 'SOURCE: distances'\n0: 0 1 3 6 inf\n1: inf 0 2 5 inf\n"
  ARGS apsp table.txt --devices 2 --backend cpu --out - -q)
gsp_cli_test(devices_cpu_apsp_report 0 "run: +floyd-warshall on cpu, 5 sources, [0-9.]+ s"
  ARGS apsp table.txt --devices 2 --backend cpu --algorithm floyd-warshall)
gsp_cli_test(devices_cpu_apsp_json 0 "\"backend\": \"cpu\", \"num_devices\": 0, \"seconds\""
  ARGS apsp table.txt --devices 2 --backend cpu --json)
gsp_cli_test(devices_cpu_table 0 "run: +[a-z-]+ on cpu \\(CPU \\([0-9]+ threads?\\)\\), [0-9.]+ s.*\nfrom.to +3 +4 +0\n0 +6 +inf +0\n1 +5 +inf +inf\n$"
  ARGS table table.txt --sources 0,1 --targets 3,4,0 --devices 2 --backend cpu)
gsp_cli_test(devices_cpu_table_json 0 "\"backend\": \"cpu\", \"device\": \"CPU[^\"]*\", \"num_devices\": 0, "
  ARGS table table.txt --sources 0 --targets 3 --devices 4 --backend cpu --json)
gsp_cli_test(devices_cpu_sssp 0 "run: +dijkstra on cpu \\(CPU \\([0-9]+ threads?\\)\\), [0-9.]+ s.*\nreached: +4 of 5 vertices from 0"
  ARGS sssp table.txt --source 0 --devices 2 --backend cpu --algorithm dijkstra)
gsp_cli_test(devices_auto_sssp 0 "\n3 6 2\n" ARGS sssp table.txt --source 0 --devices 0 --out - -q)
gsp_cli_test(devices_not_for_path 2 "unknown option '--devices' for 'gsp path'" ARGS path table.txt --from 0 --to 3 --devices 2)
if(NOT GSP_WITH_CUDA)
  gsp_cli_test(devices_no_cuda 1 "apsp failed: GSP_ERR_NO_DEVICE" ARGS apsp table.txt --devices 2 --backend cuda)
endif()

# nearest: sources 0 and 2 of table.txt; vertex 4 is reached by none.
gsp_cli_test(nearest 0 "reached: +4 of 5 vertices; farthest 3 at distance 3 from source 2\n0 0 0\n1 1 0\n2 0 2\n3 3 2\n4 inf -1\n$"
  ARGS nearest table.txt --sources 0,2)
gsp_cli_test(nearest_csv 0 "^vertex,distance,nearest,path\n0,0,0,0\n1,1,0,0 1\n2,0,2,2\n3,3,2,2 3\n4,inf,-1,\n$"
  ARGS nearest table.txt --sources 0,2 --csv --paths -q)
gsp_cli_test(nearest_json 0 "\"sources\": \\[0, 2\\], .*\"reached\": 4, .*\"ids\": \\[3, 1, 4\\], \"distances\": \\[3, 1, null\\], \"nearest\": \\[2, 0, -1\\], \"paths\": \\[\\[2, 3\\], \\[0, 1\\], null\\]}"
  ARGS nearest table.txt --sources 0,2 --vertices 3,1,4 --paths --json)
gsp_cli_test(nearest_limit 0 "^0 0 0 path: 0\n1 1 0 path: 0 -> 1\n2 0 2 path: 2\n3 inf -1 no path\n4 inf -1 no path\n$"
  ARGS nearest table.txt --sources 0,2 --limit 2 --paths -q)
gsp_cli_test(nearest_f64 0 "^0 0 0\n1 0.10000000000000001 0\n2 0 2\n3 9.9999999999999994e\\+38 2\n"
  ARGS nearest table64.txt --sources 0,2 --weights f64 -q)
gsp_cli_test(nearest_grid 0 "reached: +400 of 400 vertices" NEEDS cli_grid ARGS nearest grid.gr --sources 0,399 --vertices 5)
gsp_cli_test(nearest_no_sources 2 "missing --sources LIST" ARGS nearest table.txt)
gsp_cli_test(nearest_bad_source 2 "--sources: expected an integer in 0..4, got '9'" ARGS nearest table.txt --sources 0,9)
gsp_cli_test(nearest_csv_json 2 "--csv and --json both choose the output" ARGS nearest table.txt --sources 0 --csv --json)
gsp_cli_test(nearest_apsp_algorithm 1 "nearest failed: GSP_ERR_INVALID_ARGUMENT"
  ARGS nearest table.txt --sources 0 --algorithm floyd-warshall)

# index: a road index (gsp_index.h) of the generated grid, then sssp, path,
# apsp and table answering from it (--index, algorithm ch) print what they
# print without it. Weights of grid.gr are 1..100, so shortest paths can tie
# and a predecessor or path differ: its comparisons are of distances. wide.gr
# (same shape, weights up to 10^6, no ties on these queries) compares paths.
gsp_cli_test(index_build 0 "graph: +grid.gr, 400 vertices, 1520 arcs.*\nindex: +400 vertices, [0-9]+ arcs, [0-9]+ shortcuts, built in [0-9.]+ s on CPU \\([0-9]+ threads?\\)\nwrote: +grid.ch, [0-9]+ bytes\n$"
  NEEDS cli_grid SETUP cli_grid_index ARGS index grid.gr -o grid.ch)
gsp_cli_test(generate_wide 0 "wrote wide.gr" SETUP cli_wide
  ARGS generate grid --vertices 400 --seed 5 --max-weight 1000000 -o wide.gr)
gsp_cli_test(index_build_wide 0 "^$" NEEDS cli_wide SETUP cli_wide_index ARGS index wide.gr -o wide.ch --threads 2 -q)
gsp_cli_test(index_json 0 "^{\"file\": \"grid.gr\", \"vertices\": 400, \"arcs\": 1520, \"load_seconds\": [0-9.]+, \"index\": \"grid1.ch\", \"index_arcs\": [0-9]+, \"shortcuts\": [0-9]+, \"device\": \"CPU \\(1 threads?\\)\", \"seconds\": [0-9.]+, \"bytes\": [1-9][0-9]*}\n$"
  NEEDS cli_grid FILE grid1.ch FILE_REGEX "^GSPINDEX" ARGS index grid.gr -o grid1.ch --threads 1 --json)
gsp_cli_same(index_sssp STRIP " -?[0-9]+\n" NEEDS cli_grid cli_grid_index
  ARGS sssp grid.gr --source 7 --out - -q WITH --index grid.ch)
gsp_cli_same(index_sssp_paths NEEDS cli_wide cli_wide_index ARGS sssp wide.gr --source 210 --out - -q WITH --index wide.ch)
gsp_cli_same(index_path STRIP "(graph|index|run): [^\n]*\n" NEEDS cli_wide cli_wide_index
  ARGS path wide.gr --from 399 --to 0 WITH --index wide.ch --algorithm ch)
gsp_cli_same(index_table NEEDS cli_grid cli_grid_index
  ARGS table grid.gr --sources 0,7,399,123,7 --targets 5,10,399,0,250,5 -q WITH --index grid.ch)
gsp_cli_same(index_table_csv NEEDS cli_grid cli_grid_index
  ARGS table grid.gr --sources 0-39 --targets 100-149,3 --csv -q WITH --index grid.ch)
gsp_cli_same(index_table_paths NEEDS cli_wide cli_wide_index
  ARGS table wide.gr --sources 0,7,399,123 --targets 5,10,399,0,250,5 --paths -q WITH --index wide.ch)
gsp_cli_same(index_table_csv_paths NEEDS cli_wide cli_wide_index
  ARGS table wide.gr --sources 0-19 --targets 380-399,17 --csv --paths -q WITH --index wide.ch)
gsp_cli_same(index_table_one NEEDS cli_wide cli_wide_index
  ARGS table wide.gr --sources 17 --targets 388 --paths -q WITH --index wide.ch)
gsp_cli_same(index_table_limit NEEDS cli_grid cli_grid_index
  ARGS table grid.gr --sources 0,200 --targets 0-399 --limit 300 --csv -q WITH --index grid.ch)
gsp_cli_same(index_apsp NEEDS cli_grid cli_grid_index
  ARGS apsp grid.gr --sources 0-20,399 --out - -q WITH --index grid.ch)
gsp_cli_same(index_apsp_all NEEDS cli_grid cli_grid_index ARGS apsp grid.gr --out - -q WITH --index grid.ch)
gsp_cli_test(index_sssp_check 0 "\nindex: +grid.ch, [0-9]+ arcs, [0-9]+ shortcuts \\(loaded in [0-9.]+ s\\)\nrun: +ch on cpu .*reached: +400 of 400 vertices from 7.*check: +OK: all 400 distances match the CPU dijkstra"
  NEEDS cli_grid cli_grid_index ARGS sssp grid.gr --source 7 --to 300 --index grid.ch --check)
gsp_cli_test(index_sssp_json 0 "\"algorithm\": \"ch\", \"backend\": \"cpu\".*\"path\": \\[3, "
  NEEDS cli_grid cli_grid_index ARGS sssp grid.gr --source 3 --to 10 --index grid.ch --json)
gsp_cli_test(index_table_report 0 "\nindex: +grid.ch, .*\nrun: +ch on cpu .*reachable: +6 of 6 pairs"
  NEEDS cli_grid cli_grid_index ARGS table grid.gr --sources 0,7 --targets 5,10,399 --index grid.ch --algorithm ch)
gsp_cli_test(index_table_json 0 "\"algorithm\": \"ch\", .*\"reachable_pairs\": 6"
  NEEDS cli_grid cli_grid_index ARGS table grid.gr --sources 0,7 --targets 5,10,399 --index grid.ch --paths --json)
gsp_cli_test(index_apsp_report 0 "\nrun: +ch on cpu, 22 sources, [0-9.]+ s"
  NEEDS cli_grid cli_grid_index ARGS apsp grid.gr --sources 0-20,399 --index grid.ch)
gsp_cli_test(index_apsp_json 0 "\"algorithm\": \"ch\", \"backend\": \"cpu\""
  NEEDS cli_grid cli_grid_index ARGS apsp grid.gr --index grid.ch --json)
gsp_cli_test(index_quiet 0 "^$" NEEDS cli_grid ARGS index grid.gr -o grid_q.ch -q)
gsp_cli_test(index_help_option 0 "--index FILE +answer from the road index" ARGS table --help)
gsp_cli_test(index_ch_needs_index 2 "--algorithm ch answers from a road index: give --index FILE \\(made by 'gsp index'\\)"
  NEEDS cli_grid ARGS sssp grid.gr --source 0 --algorithm ch)
gsp_cli_test(index_other_algorithm 2 "--index answers with --algorithm auto or ch, not 'dijkstra'"
  NEEDS cli_grid cli_grid_index ARGS table grid.gr --sources 0 --targets 1 --index grid.ch --algorithm dijkstra)
gsp_cli_test(index_not_for_nearest 2 "unknown option '--index' for 'gsp nearest'" ARGS nearest table.txt --sources 0 --index x.ch)
file(WRITE ${_cli_dir}/corrupt.ch "this is not an index\n")
gsp_cli_test(index_corrupt 1 "^gsp sssp: cannot load the index: GSP_ERR_PARSE: corrupt.ch: not a usable libgsp index file: it does not start with GSPINDEX\n$"
  NEEDS cli_grid ARGS sssp grid.gr --source 0 --index corrupt.ch)
gsp_cli_test(index_graph_file 1 "cannot load the index: GSP_ERR_PARSE: grid.gr: not a usable libgsp index file"
  NEEDS cli_grid ARGS table grid.gr --sources 0 --targets 1 --index grid.gr)
gsp_cli_test(index_missing 1 "^gsp apsp: cannot load the index: GSP_ERR_IO: cannot open 'missing.ch': No such file or directory\n$"
  NEEDS cli_grid ARGS apsp grid.gr --index missing.ch)
gsp_cli_test(index_other_graph 1 "^gsp table: cannot load the index: GSP_ERR_INVALID_ARGUMENT: grid.ch: the road index was built for another graph \\(n = 400, m = 1520, int32 weights; this one has n = 5, m = 4, float32 weights\\)\n$"
  NEEDS cli_grid_index ARGS table table.txt --sources 0 --targets 3 --index grid.ch)
gsp_cli_test(index_other_weights 1 "cannot load the index: GSP_ERR_INVALID_ARGUMENT: grid.ch: the road index was built for another graph of the same size"
  NEEDS cli_wide cli_grid_index ARGS sssp wide.gr --source 0 --index grid.ch)
gsp_cli_test(index_other_weight_type 1 "cannot load the index: GSP_ERR_INVALID_ARGUMENT: grid.ch: the road index was built for another graph"
  NEEDS cli_grid cli_grid_index ARGS sssp grid.gr --source 0 --index grid.ch --weights f32)
gsp_cli_test(index_negative 1 "^gsp index: cannot build the index: GSP_ERR_NEGATIVE_WEIGHT: "
  NEEDS cli_dag ARGS index dag.mtx --weights i32 -o dag.ch)
gsp_cli_test(index_no_out 2 "missing -o INDEX" NEEDS cli_grid ARGS index grid.gr)
gsp_cli_test(index_stdout 2 "-o: an index is written to a file, not to standard output" NEEDS cli_grid ARGS index grid.gr -o -)
gsp_cli_test(index_no_file 2 "expected one FILE" ARGS index -o x.ch)
gsp_cli_test(index_bad_threads 2 "--threads: expected an integer in 0..4096, got '-2'" NEEDS cli_grid
  ARGS index grid.gr -o x.ch --threads=-2)
gsp_cli_test(index_cannot_save 1 "cannot save the index: GSP_ERR_IO: .*no-such-dir/x.ch" NEEDS cli_grid
  ARGS index grid.gr -o no-such-dir/x.ch)
gsp_cli_test(index_bad_graph 1 "cannot load graph: GSP_ERR_PARSE: bad.gr:3" ARGS index bad.gr -o x.ch)
# table.txt (hand-checked above) answered from its index: the same values.
gsp_cli_test(index_build_small 0 "index: +5 vertices" SETUP cli_small_index ARGS index table.txt -o table.ch)
gsp_cli_test(index_small_table 0 "^from.to +3 +4 +0\n0 +6 +inf +0\n1 +5 +inf +inf\npath 0 -> 3: distance 6, 4 vertices: 0 -> 1 -> 2 -> 3\n"
  NEEDS cli_small_index ARGS table table.txt --sources 0,1 --targets 3,4,0 --paths --index table.ch -q)
gsp_cli_test(index_small_sssp 0 "^# gsp sssp table.txt --source 0: vertex distance predecessor\n0 0 -1\n1 1 0\n2 3 1\n3 6 2\n4 inf -1\n$"
  NEEDS cli_small_index ARGS sssp table.txt --source 0 --index table.ch --out - -q)
gsp_cli_test(index_small_limit 0 "\n0: 0 1 3 inf inf\n1: inf 0 2 5 inf\n2: inf inf 0 3 inf\n"
  NEEDS cli_small_index ARGS apsp table.txt --limit 5 --index table.ch --out - -q)

# the New York road graph, when the data is there
if(EXISTS ${GSP_DATA_DIR}/USA-road-d.NY.gr.gz)
  gsp_cli_test(ny_info 0 "vertices: +264346.*arcs: +733846" ARGS info ${GSP_DATA_DIR}/USA-road-d.NY.gr.gz)
  gsp_cli_test(ny_path 0 "distance: +0 -> 1000 = " ARGS sssp ${GSP_DATA_DIR}/USA-road-d.NY.gr.gz --source 0 --to 1000 --check)
  gsp_cli_test(ny_index 0 "index: +264346 vertices" SETUP cli_ny_index ARGS index ${GSP_DATA_DIR}/USA-road-d.NY.gr.gz -o ny.ch)
  gsp_cli_test(ny_index_check 0 "run: +ch on cpu .*check: +OK: all 264346 distances match" NEEDS cli_ny_index
    ARGS sssp ${GSP_DATA_DIR}/USA-road-d.NY.gr.gz --source 0 --index ny.ch --check)
  gsp_cli_same(ny_index_table NEEDS cli_ny_index
    ARGS table ${GSP_DATA_DIR}/USA-road-d.NY.gr.gz --sources 0-49 --targets 100000-100049 --csv -q WITH --index ny.ch)
endif()
