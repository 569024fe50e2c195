#!/bin/sh
# The layer rules of doc/architecture.md ("The layers and what they
# include"), checked on every #include "..." of a source tree: a file may
# include only its own layer and the layers below it. Exit 1, naming each
# include that breaks a rule as FILE:LINE; 0 when none does.
#
#   sh scripts/check_layers.sh [SRC_DIR]     (default: the src/ beside this script)
#
# The rules, by the including file's folder under SRC_DIR (first match):
#   core/            core/ (the contract and the data model: tuning, algorithm
#                    facts, the predecessor-pass policy, the hop-depth probe,
#                    the CUDA runtime's seam gpu_runtime.h)
#   io/              io/ core/
#   dispatch/        dispatch/ core/ and the two backends' doors,
#                    engines/cpu/cpu_backend.h and engines/cuda/cuda_backend.h
#                    (plain C++ headers, no CUDA types), nothing else of engines/
#   engines/cpu/     engines/cpu/ core/
#   engines/cuda/    engines/cuda/ and its families by name (runtime/ sssp/
#                    apsp_dense/ apsp_sparse/ index/) core/
#   engines/mpi/     engines/mpi/ engines/cpu/ core/
#   api/             api/ dispatch/ core/ io/; api/api_mpi.cpp also engines/mpi/
#   cli/ tools/      the public API and their own headers (cli.h svg.h
#                    gsp_generators.h)
# Everywhere: gsp/ (the public headers) and a header of the file's own folder
# named without a path.
set -u
src=${1:-$(dirname "$0")/../src}
cd "$src" || { echo "check_layers: no folder $src"; exit 2; }
find . -type f \( -name '*.h' -o -name '*.c' -o -name '*.cpp' -o -name '*.cu' -o -name '*.cuh' \) | sort |
awk '
function allowed(file, inc,   dir, n, p, i, rules) {
  if (inc ~ /^gsp\//) return 1
  dir = file; sub(/\/[^\/]*$/, "", dir)
  if (inc !~ /\//) {                       # a header of the same folder
    if ((getline line < (dir "/" inc)) >= 0) { close(dir "/" inc); return 1 }
  }
  if (file ~ /^core\//)              rules = "core/"
  else if (file ~ /^io\//)           rules = "io/ core/"
  else if (file ~ /^dispatch\//)     rules = "dispatch/ core/ engines/cpu/cpu_backend.h engines/cuda/cuda_backend.h"
  else if (file ~ /^engines\/cpu\//) rules = "engines/cpu/ core/"
  else if (file ~ /^engines\/cuda\//) rules = "engines/cuda/ runtime/ sssp/ apsp_dense/ apsp_sparse/ index/ core/"
  else if (file ~ /^engines\/mpi\//) rules = "engines/mpi/ engines/cpu/ core/"
  else if (file == "api/api_mpi.cpp") rules = "api/ dispatch/ core/ io/ engines/mpi/"
  else if (file ~ /^api\//)          rules = "api/ dispatch/ core/ io/"
  else if (file ~ /^(cli|tools)\//)  rules = "cli.h svg.h gsp_generators.h"
  else return 0
  n = split(rules, p, " ")
  for (i = 1; i <= n; i++) {
    if (p[i] ~ /\/$/ && index(inc, p[i]) == 1) return 1
    if (p[i] !~ /\/$/ && inc == p[i]) return 1
  }
  rule_text = rules
  return 0
}
{
  file = $0; sub(/^\.\//, "", file)
  ln = 0
  while ((getline line < $0) > 0) {
    ln++
    if (line !~ /^[ \t]*#[ \t]*include[ \t]*"/) continue
    inc = line; sub(/^[^"]*"/, "", inc); sub(/".*$/, "", inc)
    rule_text = "(none: a folder the rules do not name)"
    if (!allowed(file, inc)) {
      printf "%s:%d: includes \"%s\"; this layer may include: %s\n", file, ln, inc, rule_text
      bad++
    }
  }
  close($0)
  files++
}
END {
  if (bad) { printf "check_layers: %d include(s) break the layer rules (doc/architecture.md)\n", bad; exit 1 }
  printf "check_layers: %d files, every include within its layer\n", files
}'
