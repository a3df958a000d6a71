#!/usr/bin/env bash
# tools/format.sh — clang-format 14 over every C++ file git tracks (.cc, .h,
# .cpp and the Ascend C sources .asc), as the .clang-format files say (Google
# style; 80 columns under include/, src/ascendc/ and tests/ascendc/).
#   tools/format.sh           formats the files in place
#   tools/format.sh --check   changes nothing; lists each file that differs
#                             from its formatted self and fails if any does
# Version 14 exactly: other versions format some constructs differently, so
# a check with another would fail on files this one wrote.
set -euo pipefail
cd "$(dirname "$0")/.."

formatter=""
for candidate in clang-format-14 clang-format; do
  if command -v "$candidate" >/dev/null && "$candidate" --version | grep -q 'version 14\.'; then
    formatter=$candidate
    break
  fi
done
if [ -z "$formatter" ]; then
  echo "tools/format.sh: clang-format 14 not found (make deps-clang installs clang-format-14)" >&2
  exit 2
fi

mapfile -t files < <(git ls-files '*.cc' '*.h' '*.cpp' '*.asc')
if [ "${1:-}" = "--check" ]; then
  unformatted=0
  for f in "${files[@]}"; do
    if ! "$formatter" --dry-run --Werror "$f" >/dev/null 2>&1; then
      echo "not formatted: $f"
      unformatted=$((unformatted + 1))
    fi
  done
  if [ "$unformatted" -gt 0 ]; then
    echo "tools/format.sh: $unformatted of ${#files[@]} files differ from clang-format's output" \
         "(run tools/format.sh, or make format)" >&2
    exit 1
  fi
  echo "tools/format.sh: all ${#files[@]} C++ files formatted"
else
  "$formatter" -i "${files[@]}"
fi
