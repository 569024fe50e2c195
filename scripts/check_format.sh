#!/bin/sh
# The C, C++ and CUDA sources follow .clang-format: exit 1 naming each file
# clang-format would change (fix: clang-format -i FILE), 0 when none, 77
# (skipped) when clang-format 14 is missing. Other major versions format a
# few constructs differently, so only 14 (Debian 12's) is asked.
#
#   sh scripts/check_format.sh [ROOT]        (default: the tree of this script)
set -u
root=${1:-$(dirname "$0")/..}
cd "$root" || exit 2
CF=${CLANG_FORMAT:-}
if [ -z "$CF" ]; then
  for c in clang-format-14 clang-format; do
    if command -v "$c" >/dev/null 2>&1 && "$c" --version | grep -q 'version 14\.'; then CF=$c; break; fi
  done
fi
if [ -z "$CF" ]; then
  echo "check_format: clang-format 14 not found: skipped (apt-get install clang-format)"
  exit 77
fi
bad=0
files=0
for f in $(find src include tests bench fuzz bindings doc/examples -type f \
             \( -name '*.c' -o -name '*.cc' -o -name '*.cpp' -o -name '*.h' -o -name '*.hpp' \
                -o -name '*.cu' -o -name '*.cuh' \) 2>/dev/null | grep -v '/target/' | sort); do
  files=$((files + 1))
  if ! "$CF" --style=file --dry-run --Werror "$f" >/dev/null 2>&1; then
    echo "$f: not in the style of .clang-format (clang-format -i $f)"
    bad=$((bad + 1))
  fi
done
if [ "$bad" -gt 0 ]; then
  echo "check_format: $bad of $files file(s) differ from .clang-format"
  exit 1
fi
echo "check_format: $files files follow .clang-format"
