#!/usr/bin/env bash
# Objective: `cmake --install` gives a usable library and program.
#   - into a temporary prefix it installs the binary, librxlab (shared and
#     static), the public headers (include/rxlab/), the man pages, the bash
#     completion and rxlab.pc;
#   - every examples/*.c builds against that prefix with `pkg-config
#     --cflags --libs rxlab` alone (gcc -Wall -Wextra -Werror), and
#     sim_livelock (no privileges needed) runs on the installed library and
#     shows the livelock: classic forwards nothing at 1488 kpps, NAPI does;
#   - `pkg-config --static --libs` names what the archive needs, and a
#     program linked with librxlab.a runs too;
#   - the installed rxlab runs (--version).
set -u
rxlab="$1" src="$2"
build="$(cd "$(dirname "$rxlab")" && pwd)"
tmp="$(mktemp -d "$build/install-test.XXXXXX")"; trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok   $*"; }
no() { echo "FAIL $*"; fails=$((fails + 1)); }
for t in cmake gcc pkg-config; do
  command -v "$t" > /dev/null || { echo "skip: no $t"; exit 0; }
done

p="$tmp/prefix"
if cmake --install "$build" --prefix "$p" > "$tmp/log" 2>&1; then
  ok "cmake --install --prefix"
else
  no "cmake --install failed: $(tail -3 "$tmp/log")"; exit 1
fi
libdir="$(dirname "$(find "$p" -name rxlab.pc | head -1)")/.."
for f in bin/rxlab include/rxlab/sim.h include/rxlab/live.h include/rxlab/scheme.h \
         share/bash-completion/completions/rxlab; do
  [ -e "$p/$f" ] && ok "installed $f" || no "not installed: $f"
done
for f in librxlab.so librxlab.a pkgconfig/rxlab.pc; do
  [ -e "$libdir/$f" ] && ok "installed lib/$f" || no "not installed: lib/$f"
done
if [ -e "$build/man/rxlab.1" ]; then
  for f in man1/rxlab.1 man5/rxlab-scenario.5; do
    [ -s "$p/share/man/$f" ] && ok "installed man/$f" || no "not installed: man/$f"
  done
elif command -v help2man > /dev/null; then
  no "help2man is installed but the build made no man pages (reconfigure?)"
else
  echo "skip man pages: no help2man at build time (scripts/deps installs it)"
fi
"$p/bin/rxlab" --version | head -1 | grep -q '^rxlab [0-9]' && ok "installed rxlab --version" ||
  no "installed rxlab --version"

export PKG_CONFIG_PATH="$libdir/pkgconfig"
flags=($(pkg-config --cflags --libs rxlab)) || { no "pkg-config rxlab"; exit 1; }
# a sanitizer build (scripts/check, RXLAB_SANITIZE) installs a library
# that needs its runtime: a program on it is built with the same flags
if nm -D "$libdir/librxlab.so" 2>/dev/null | grep -q __asan_init; then
  echo "note: a sanitizer build: the examples get -fsanitize=address,undefined too"
  flags+=(-fsanitize=address,undefined)
fi
for c in "$src"/examples/*.c; do
  n="$(basename "$c" .c)"
  if gcc -Wall -Wextra -Werror -o "$tmp/$n" "$c" "${flags[@]}" 2> "$tmp/$n.err"; then
    ok "examples/$n.c builds with pkg-config --cflags --libs rxlab alone"
  else
    no "examples/$n.c: $(head -3 "$tmp/$n.err")"
  fi
done
if [ -x "$tmp/sim_livelock" ]; then
  out="$(LD_LIBRARY_PATH="$libdir" "$tmp/sim_livelock" -r 100kpps,1488kpps 2>&1)"
  echo "$out" | grep -q '^classic .* it forwards 0 pps' &&
    echo "$out" | grep -Eq '^napi .* it forwards [1-9][0-9]* pps' &&
    ok "sim_livelock on the installed librxlab.so: the livelock" ||
    no "sim_livelock on the installed library: $out"
fi

# the archive: what --static adds is enough to link it
static=($(pkg-config --static --libs rxlab | sed 's/-lrxlab//'))
san=()
[[ " ${flags[*]} " == *" -fsanitize=address,undefined "* ]] && san=(-fsanitize=address,undefined)
if gcc -Wall -Wextra -Werror "${san[@]}" -o "$tmp/sim_static" "$src/examples/sim_livelock.c" \
     $(pkg-config --cflags rxlab) "$libdir/librxlab.a" "${static[@]}" 2> "$tmp/static.err" &&
   "$tmp/sim_static" -r 1488kpps -p napi | grep -q '^napi '; then
  ok "librxlab.a with pkg-config --static --libs: links and runs"
else
  no "librxlab.a: $(head -3 "$tmp/static.err")"
fi

[ "$fails" -eq 0 ] && echo "0 failure(s)" || { echo "$fails failure(s)"; exit 1; }
