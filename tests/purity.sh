#!/usr/bin/env bash
# purity.sh OBJ... - fail if any src/core object references a symbol outside
# the allow-list: core code may not do I/O, read clocks, allocate, or make
# system calls.  The allow-list holds what compilers emit on their own
# (memcpy/memset for struct copies, stack protector, sanitizer runtime).
set -u
allowed='^(memcpy|memset|memmove|memcmp|__stack_chk_fail|__asan_.*|__ubsan_.*|__sanitizer_.*|_GLOBAL_OFFSET_TABLE_)$'
status=0
n=0
for obj in "$@"; do
  n=$((n+1))
  while read -r sym; do
    [ -z "$sym" ] && continue
    if ! [[ $sym =~ $allowed ]]; then
      echo "purity: $(basename "$obj") references '$sym' (not allowed in src/core)"
      status=1
    fi
  done < <(nm -u "$obj" | awk '{print $NF}' | sed 's/@.*//')
done
if [ "$n" -eq 0 ]; then echo "purity: no core objects given"; exit 1; fi
[ $status -eq 0 ] && echo "purity: $n core objects reference only allowed symbols"
exit $status
