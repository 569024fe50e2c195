#!/bin/sh
# `pip install ./bindings/python` from a fresh clone, without make install
# (issue 31 item 4): copies the tracked files of this checkout (git ls-files,
# with uncommitted edits) to a temporary directory, installs the package
# from there offline into a target directory, setup.py building libgsp.so
# with CMake (CPU only, to keep it short: GSP_CMAKE_ARGS=-DGSP_WITH_CUDA=OFF
# unless set), then imports gsp.csgraph from the target and runs a
# shortest_path. Usage: sh bindings/python/tests/check_clone_install.sh
# Exit 77 (CTest skip) without git, cmake or a python3 with pip, setuptools,
# wheel and numpy.
set -eu
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
skip() { printf '\n*** SKIP python clone install: %s\n\n' "$*"; exit 77; }
command -v git >/dev/null 2>&1 || skip "git not found"
command -v cmake >/dev/null 2>&1 || skip "cmake not found"
PY=""
for cand in ${PYTHON:-} python3 /usr/bin/python3; do
  command -v "$cand" >/dev/null 2>&1 || continue
  if "$cand" -c 'import setuptools, wheel, pip, numpy' 2>/dev/null; then PY=$cand; break; fi
done
[ -n "$PY" ] || skip "no python3 with pip, setuptools, wheel and numpy (Debian: python3-pip python3-setuptools python3-wheel python3-numpy)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "== clone: git ls-files of $ROOT -> $tmp/clone"
mkdir "$tmp/clone"
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard | xargs -0 sh -c '
  for f; do [ -f "$f" ] && printf "%s\0" "$f"; done' sh | tar --null -T - -cf -) | (cd "$tmp/clone" && tar -xf -)
[ -f "$tmp/clone/CMakeLists.txt" ] || { echo "clone install: the copy has no CMakeLists.txt" >&2; exit 1; }

echo "== pip install --no-build-isolation --no-index --no-deps --target (no installed libgsp)"
# No installed libgsp may be found: setup.py must build it from the clone.
unset GSP_LIBRARY GSP_BUILD_DIR GSP_SOURCE_DIR
export PKG_CONFIG_PATH="$tmp/none" PKG_CONFIG_LIBDIR="$tmp/none"
export GSP_CMAKE_ARGS="${GSP_CMAKE_ARGS:--DGSP_WITH_CUDA=OFF}" PYTHONDONTWRITEBYTECODE=1
(cd "$tmp/clone" && "$PY" -m pip install --no-build-isolation --no-index --no-deps --target "$tmp/site" \
  ./bindings/python)
ls "$tmp/site/gsp"/libgsp.so.* >/dev/null || { echo "clone install: pip did not ship libgsp.so" >&2; exit 1; }

echo "== wheel: tagged for the platform"
(cd "$tmp/clone" && "$PY" -m pip wheel --no-build-isolation --no-index --no-deps -w "$tmp/wheel" ./bindings/python >/dev/null)
whl=$(ls "$tmp/wheel"/gsp-*.whl)
echo "$whl"
case $(basename "$whl") in
  *-py3-none-any.whl) echo "clone install: the wheel is tagged py3-none-any" >&2; exit 1 ;;
  *-py3-none-*.whl) ;;
  *) echo "clone install: unexpected wheel tag" >&2; exit 1 ;;
esac

echo "== import and run"
cd "$tmp"
PYTHONPATH="$tmp/site" "$PY" - "$tmp/site" <<'PYEOF'
import sys
import numpy as np
import gsp, gsp._ffi as f
from gsp.csgraph import shortest_path
assert f.lib._name.startswith(sys.argv[1]), f.lib._name
g = np.array([[0, 1, 4], [0, 0, 2], [0, 0, 0]], dtype=float)
d, p = shortest_path(g, return_predecessors=True)
assert d.dtype == np.float64 and p.dtype == np.int32
assert d.tolist() == [[0, 1, 3], [np.inf, 0, 2], [np.inf, np.inf, 0]], d
assert p.tolist() == [[-9999, 0, 1], [-9999, -9999, 1], [-9999, -9999, -9999]], p
print("loaded", f.lib._name, "libgsp", gsp.version_string(), "shortest_path ok")
PYEOF
echo "python clone install: ok"
