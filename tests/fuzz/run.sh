#!/usr/bin/env bash
# run.sh SECONDS [TARGET...] - build the libFuzzer targets with clang (ASan +
# UBSan) and run each (or the TARGETs named) for SECONDS over a copy of its
# seed corpus.
#
# Objective: no input makes the scenario loader, the unit parser, --set
# overrides, the capture reader, the results-file reader, the replay readers
# or tune's options and goals crash, leak, hang or hit undefined behaviour,
# nor the figure scripts hold an unquoted text.  libFuzzer first
# replays every file of tests/fuzz/corpus/TARGET/ (seeds and the regression
# inputs of past crashes), then mutates them for SECONDS.  The exit status
# is non-zero on any crash, leak, timeout or sanitizer report; the
# reproducer's path is printed and the temporary directory holding it is
# kept.  Once the bug is fixed, copy the reproducer into
# tests/fuzz/corpus/TARGET/ as a regression input.
#
# The repository is never written: the corpus is copied to a work directory
# and everything is built in a temporary directory (set RXLAB_FUZZ_DIR to
# choose and keep it).  Reproduce one input: DIR/fuzz_TARGET FILE.
#
# fuzz_pcap covers the capture reader (libpcap underneath); fuzz_trace the
# trace reader of the simulator (CSV timelines and captures, cli/trace_load.c);
# fuzz_rowfile the results-file reader of sweep --resume, merge and plot
# (with its line, size and row limits); fuzz_replay the readers of rxlab
# replay (the CSV rows of each mechanism, and captures);
# fuzz_plot the figure scripts of hostile results (no backquote, no
# unescaped quote, nothing but single-quoted literals of printable UTF-8).
# fuzz_tune the options and goals of rxlab tune (cli/tune_args.c, goal.c).
# fuzz_profile the cost-profile reader with its [cstates] table.
set -euo pipefail
secs="${1:-20}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
cc="${CLANG:-clang}"
targets=(fuzz_scenario fuzz_profile fuzz_units fuzz_set fuzz_pcap fuzz_trace fuzz_rowfile fuzz_replay fuzz_plot fuzz_tune)
[ $# -gt 1 ] && targets=("${@:2}")
tmp="${RXLAB_FUZZ_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/rxlab-fuzz.XXXXXX")}"
keep=0
cleanup() { [ "$keep" -eq 1 ] || [ -n "${RXLAB_FUZZ_DIR:-}" ] || rm -rf "$tmp"; }
trap cleanup EXIT
rm -rf "$tmp/work" "$tmp/artifacts"
mkdir -p "$tmp/obj" "$tmp/work" "$tmp/artifacts"

# -fno-sanitize-recover: a UBSan report aborts, so libFuzzer records a crash.
san=(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
cflags=(-g -O1 -std=c11 -D_DEFAULT_SOURCE -ffp-contract=off -Wall -Wextra
        -I"$root/include" -I"$root/src" "${san[@]}")

echo "== fuzz: building with $("$cc" --version | head -n1) in $tmp"
# The built-in scenarios and profiles, generated exactly as CMakeLists.txt does.
files=("$root"/scenarios/*.ini "$root"/scenarios/seeds/*.ini "$root"/profiles/*.ini)
list="$(IFS='|'; echo "${files[*]}")"
cmake -DOUT="$tmp/obj/builtin_data.c" -DROOT="$root" "-DFILES=$list" \
      -P "$root/cmake/embed.cmake"
# The version strings, as the build's rxlab_version target writes them.
version="$(sed -n 's/^project(rxlab VERSION \([0-9.]*\).*/\1/p' "$root/CMakeLists.txt")"
cmake -DOUT="$tmp/obj/rxlab_version.c" -DROOT="$root" -DVERSION="$version" \
      -P "$root/cmake/version.cmake"

# Every library source except main.c, instrumented for coverage but without
# libFuzzer's main(); as many compiles at once as there are CPUs.
objs=()
jobs=0
mapfile -t lib_srcs < <(find "$root/src" -name '*.c' | LC_ALL=C sort)
for src in "${lib_srcs[@]}" "$tmp/obj/builtin_data.c" "$tmp/obj/rxlab_version.c"; do
  [ "$src" = "$root/src/cli/main.c" ] && continue
  rel="${src#"$root"/}"
  obj="$tmp/obj/${rel//\//_}.o"
  objs+=("$obj")
  "$cc" "${cflags[@]}" -fsanitize=fuzzer-no-link -c "$src" -o "$obj" &
  jobs=$((jobs + 1))
  if [ "$jobs" -ge "$(nproc)" ]; then wait -n; jobs=$((jobs - 1)); fi
done
while [ "$jobs" -gt 0 ]; do wait -n; jobs=$((jobs - 1)); done
for t in "${targets[@]}"; do
  "$cc" "${cflags[@]}" -Werror -fsanitize=fuzzer "$root/tests/fuzz/$t.c" "${objs[@]}" -lm -lpcap -lpthread \
        -o "$tmp/$t"
done

# Run each target from an empty directory with stdin closed: a fuzzed
# "profile = PATH" may name any file, and must not read a terminal or pipe.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
fails=0
for t in "${targets[@]}"; do
  work="$tmp/work/$t" art="$tmp/artifacts/$t"
  mkdir -p "$work" "$art" "$tmp/cwd"
  cp -r "$root/tests/fuzz/corpus/$t/." "$work/"
  echo "== fuzz: $t for ${secs}s ($(ls "$work" | wc -l) corpus files)"
  # The schema's words (keys, sections, units) let mutations reach past
  # "unknown key" quickly.
  dict="$root/tests/fuzz/scenario.dict"
  [ "$t" = fuzz_units ] && dict="$root/tests/fuzz/units.dict"
  [ "$t" = fuzz_rowfile ] && dict="$root/tests/fuzz/rowfile.dict"
  [ "$t" = fuzz_plot ] && dict="$root/tests/fuzz/plot.dict"
  [ "$t" = fuzz_tune ] && dict="$root/tests/fuzz/tune.dict"
  [ "$t" = fuzz_replay ] && dict="$root/tests/fuzz/replay.dict"
  rc=0
  (cd "$tmp/cwd" && "$tmp/$t" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=10 \
      -dict="$dict" -print_final_stats=1 -artifact_prefix="$art/" "$work" \
      </dev/null >"$tmp/$t.log" 2>&1) || rc=$?
  grep -E '^(stat::number_of_executed_units|stat::new_units_added|#[0-9]+ +DONE)' "$tmp/$t.log" || true
  if [ "$rc" -ne 0 ] || [ -n "$(ls -A "$art")" ] ||
     grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:' "$tmp/$t.log"; then
    fails=$((fails + 1))
    keep=1
    echo "FAIL $t: exit $rc; log $tmp/$t.log"
    grep -E 'ERROR:|runtime error:|SUMMARY:' "$tmp/$t.log" | head -n 5 || true
    for f in "$art"/*; do
      [ -e "$f" ] && echo "     reproducer: $f  (run: $tmp/$t $f)"
    done
  else
    echo "ok   $t"
  fi
done
[ "$fails" -eq 0 ] || { echo "$fails fuzz target(s) failed; kept $tmp"; exit 1; }
