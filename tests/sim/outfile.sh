#!/usr/bin/env bash
# Objective: `--out PATH` writes where the shell's `> PATH` would and loses
# nothing (issue #14, docs/output-files.md).  Checked on `merge --out FILE`
# (rowfile_write, as sweep --out) and `tune --out DIR` (four files):
#   - a symlink: its target gets the result, the link stays a link;
#   - a FIFO: a reader gets the bytes, it stays a FIFO; a pipe reached
#     through /proc/self/fd/1 (/dev/stdout) gets them too;
#   - a character device (a mknod copy of /dev/full in the scratch
#     directory): exit 2, "cannot write PATH: No space left on device", it
#     stays the same device, the regular files keep what they had;
#   - a symlink planted at the old temporary name PATH.tmp: neither it nor
#     the file it points to is touched;
#   - two writers of one target: the second fails at once naming the path
#     (and the first writer's pid), the first one's result is whole;
#   - no temporary file is ever left behind.
# And every command checks its standard output: `> /dev/full` or a closed
# stdout exits 2 with "rxlab: cannot write standard output: REASON".
# Synchronisation is by the FIFOs and locks themselves, never by sleeping;
# `timeout` only bounds a run that hangs (as the old code does on a FIFO).
set -u
rxlab="$1"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok   $*"; }
no() { echo "FAIL $*"; fails=$((fails + 1)); }
rx() { timeout 20 "$rxlab" "$@"; }

# holds DIR NAME... : DIR holds exactly these names (so no temporary file)
holds() {
  local d="$1"; shift
  [ "$(printf '%s\n' "$@" | sort)" = "$(ls -A "$d" | sort)" ]
}
is_full_copy() { [ -c "$1" ] && [ "$(stat -c %t:%T "$1")" = 1:7 ]; }
mknod_full() { mknod "$1" c 1 7 2>/dev/null && is_full_copy "$1"; }

sweep=(sweep livelock --set run.duration=20ms --set run.warmup=2ms
       --vary traffic.rate=50kpps,100kpps,200kpps --format csv)
rx "${sweep[@]}" > "$tmp/whole.csv"
for k in 1 2; do rx "${sweep[@]}" --shard "$k/2" --out "$tmp/s$k.csv"; done
merge=(merge "$tmp/s1.csv" "$tmp/s2.csv")
rx "${merge[@]}" > "$tmp/merged.csv" && cmp -s "$tmp/merged.csv" "$tmp/whole.csv" \
  || no "setup: merged shards differ from the whole sweep"
tune=(tune udp-sink --set run.duration=20ms --set run.warmup=2ms --goal 'irqs<=600'
      --policies itr)
rx "${tune[@]}" --out "$tmp/ref" > /dev/null || no "setup: tune --out exit $?"
same_as_ref() { cmp -s "$1" "$tmp/ref/$(basename "$1")"; }

# ---- merge --out FILE ------------------------------------------------------

d="$tmp/link"; mkdir -p "$d/real"; echo old > "$d/real/out.csv"
ln -s real/out.csv "$d/out.csv"
if rx "${merge[@]}" --out "$d/out.csv" && [ -L "$d/out.csv" ] \
   && cmp -s "$d/real/out.csv" "$tmp/whole.csv" && holds "$d/real" out.csv; then
  ok "merge --out SYMLINK: its target replaced, the link stays a link"
else no "merge --out SYMLINK: $(ls -lA "$d" "$d/real" | tr '\n' ' ')"; fi

d="$tmp/fifo"; mkdir "$d"; mkfifo "$d/out"
timeout 10 cat "$d/out" > "$d/got" & reader=$!
rx "${merge[@]}" --out "$d/out"; rc=$?
wait "$reader"
if [ "$rc" -eq 0 ] && [ -p "$d/out" ] && cmp -s "$d/got" "$tmp/whole.csv"; then
  ok "merge --out FIFO: the reader got the bytes, it stays a FIFO"
else no "merge --out FIFO: exit $rc, $(stat -c %F "$d/out"), $(wc -c < "$d/got") bytes read"; fi

# /proc/self/fd/1 (what /dev/stdout is) when stdout is a pipe: written in place
got="$(rx "${merge[@]}" --out /proc/self/fd/1 | cat)"
[ "$got" = "$(cat "$tmp/whole.csv")" ] && ok "merge --out /proc/self/fd/1 into a pipe: written in place" \
  || no "merge --out /proc/self/fd/1 into a pipe: got $(wc -c <<<"$got") bytes"

d="$tmp/dev"; mkdir "$d"
if mknod_full "$d/full"; then
  err="$(rx "${merge[@]}" --out "$d/full" 2>&1)"; rc=$?
  if [ "$rc" -eq 2 ] && [ "$err" = "rxlab: cannot write $d/full: No space left on device" ] \
     && is_full_copy "$d/full" && holds "$d" full; then
    ok "merge --out CHAR-DEVICE (copy of /dev/full): exit 2, '$err', still the device"
  else no "merge --out CHAR-DEVICE: exit $rc, '$err', now $(stat -c %F "$d/full")"; fi
else
  echo "skip merge --out CHAR-DEVICE: mknod not permitted here"
fi

d="$tmp/planted"; mkdir "$d"; echo precious > "$d/victim"
ln -s victim "$d/out.csv.tmp"
if rx "${merge[@]}" --out "$d/out.csv" && cmp -s "$d/out.csv" "$tmp/whole.csv" \
   && [ "$(cat "$d/victim")" = precious ] && [ -L "$d/out.csv.tmp" ] \
   && holds "$d" out.csv out.csv.tmp victim; then
  ok "merge --out PATH with a symlink planted at PATH.tmp: link and its target untouched"
else no "merge with a planted PATH.tmp: victim now '$(head -c 40 "$d/victim")', $(ls -lA "$d" | tr '\n' ' ')"; fi

# A writer that holds the lock (this shell, through flock(1) on fd 9): the
# second writer fails at once and the file keeps its content.
d="$tmp/locked"; mkdir "$d"; echo old > "$d/out.csv"
exec 9<"$d/out.csv"; flock -n 9
err="$(rx "${merge[@]}" --out "$d/out.csv" 2>&1)"; rc=$?
exec 9<&-
if [ "$rc" -eq 2 ] && [[ "$err" == "rxlab: $d/out.csv is being written by another process"* ]] \
   && [ "$(cat "$d/out.csv")" = old ] && holds "$d" out.csv; then
  ok "merge --out FILE while another writer holds it: exit 2, '$err'"
else no "merge --out a locked FILE: exit $rc, '$err', content '$(head -c 20 "$d/out.csv")'"; fi
rx "${merge[@]}" --out "$d/out.csv" && cmp -s "$d/out.csv" "$tmp/whole.csv" \
  && ok "merge --out FILE after the other writer is done: written" \
  || no "merge --out FILE after the lock was released"

# Two merges of different results raced on one file, 10 times: the file is
# always one whole result, a loser says why, no temporary file stays.
rx sweep livelock --set run.duration=20ms --set run.warmup=2ms --vary traffic.rate=300kpps \
  --format csv --shard 1/1 --out "$tmp/other.csv"
rx merge "$tmp/other.csv" > "$tmp/other.merged"
d="$tmp/race"; mkdir "$d"; bad=0
for i in $(seq 10); do
  rx "${merge[@]}" --out "$d/out.csv" 2> "$d/a.err" & a=$!
  rx merge "$tmp/other.csv" --out "$d/out.csv" 2> "$d/b.err" & b=$!
  wait "$a"; ra=$?; wait "$b"; rb=$?
  if ! { [ "$ra" -eq 0 ] || grep -q 'is being written by another process' "$d/a.err"; } ||
     ! { [ "$rb" -eq 0 ] || grep -q 'is being written by another process' "$d/b.err"; } ||
     ! { cmp -s "$d/out.csv" "$tmp/whole.csv" || cmp -s "$d/out.csv" "$tmp/other.merged"; } ||
     ! holds "$d" out.csv a.err b.err; then
    bad=$((bad + 1)); echo "     round $i: exits $ra $rb; $(cat "$d/a.err" "$d/b.err")"
  fi
done
[ "$bad" -eq 0 ] && ok "10 races of two merges on one --out: always one whole result" \
  || no "$bad of 10 races of two merges lost or mixed a result"

# ---- tune --out DIR ----------------------------------------------------------

# tune.gp a symlink, tune.dat a FIFO with a reader, a planted
# tune-points.csv.tmp: all in one run.
d="$tmp/tune1"; mkdir -p "$d/dir" "$d/elsewhere"; echo old > "$d/elsewhere/tune.gp"
ln -s ../elsewhere/tune.gp "$d/dir/tune.gp"; mkfifo "$d/dir/tune.dat"
echo precious > "$d/victim"; ln -s ../victim "$d/dir/tune-points.csv.tmp"
timeout 10 cat "$d/dir/tune.dat" > "$d/got.dat" & reader=$!
rx "${tune[@]}" --out "$d/dir" > /dev/null; rc=$?
wait "$reader"
[ "$rc" -eq 0 ] && ok "tune --out DIR with a symlink, a FIFO and a planted PATH.tmp: exit 0" \
  || no "tune --out DIR with special files: exit $rc"
[ -L "$d/dir/tune.gp" ] && same_as_ref "$d/elsewhere/tune.gp" \
  && ok "tune --out: tune.gp (a symlink) stays a link, its target replaced" \
  || no "tune --out: tune.gp symlink: $(ls -l "$d/dir/tune.gp")"
[ -p "$d/dir/tune.dat" ] && cmp -s "$d/got.dat" "$tmp/ref/tune.dat" \
  && ok "tune --out: tune.dat (a FIFO) stays a FIFO, the reader got the data" \
  || no "tune --out: tune.dat FIFO: $(stat -c %F "$d/dir/tune.dat"), $(wc -c < "$d/got.dat") bytes"
[ "$(cat "$d/victim")" = precious ] && [ -L "$d/dir/tune-points.csv.tmp" ] \
  && same_as_ref "$d/dir/tune-points.csv" && same_as_ref "$d/dir/apply.sh" \
  && holds "$d/dir" tune-points.csv tune-points.csv.tmp tune.dat tune.gp apply.sh \
  && holds "$d/elsewhere" tune.gp \
  && ok "tune --out: the planted tune-points.csv.tmp and its target untouched, no temporaries" \
  || no "tune --out planted link: victim '$(head -c 40 "$d/victim")', $(ls -lA "$d/dir" | tr '\n' ' ')"

# apply.sh a copy of /dev/full: exit 2 naming it; the regular files keep
# what they had.
d="$tmp/tune2"; mkdir "$d"
if mknod_full "$d/apply.sh"; then
  for f in tune-points.csv tune.dat tune.gp; do echo old > "$d/$f"; done
  err="$(rx "${tune[@]}" --out "$d" 2>&1 >/dev/null)"; rc=$?
  if [ "$rc" -eq 2 ] && [ "$err" = "rxlab: cannot write $d/apply.sh: No space left on device" ] \
     && is_full_copy "$d/apply.sh" && [ "$(cat "$d/tune-points.csv" "$d/tune.dat" "$d/tune.gp")" = \
     "$(printf 'old\nold\nold')" ] && holds "$d" tune-points.csv tune.dat tune.gp apply.sh; then
    ok "tune --out DIR, apply.sh a CHAR-DEVICE: exit 2, '$err', still the device, the rest unchanged"
  else no "tune --out, apply.sh a device: exit $rc, '$err', $(ls -lA "$d" | tr '\n' ' ')"; fi
else
  echo "skip tune --out CHAR-DEVICE: mknod not permitted here"
fi

# Two tunes into one DIR.  The first (A) is held open by two FIFOs:
# tune.gp, whose opening for reading returns once A has opened it (so A
# holds the locks of the files it opened before), and apply.sh, which
# keeps A waiting until it has a reader.  The second (B) must fail, naming
# A; then A finishes with its whole result.
d="$tmp/tune3"; mkdir "$d"; mkfifo "$d/tune.gp" "$d/apply.sh" "$tmp/sync"
exec 7<>"$tmp/sync"
( exec 8<"$d/tune.gp"; echo opened >&7; cat <&8 > "$tmp/got.gp" ) & greader=$!
"$rxlab" "${tune[@]}" --out "$d" > /dev/null 2> "$tmp/a.err" & a=$!
if read -r -t 30 -u 7 _; then
  err="$(rx "${tune[@]}" --out "$d" 2>&1 >/dev/null)"; rc=$?
  want="rxlab: $d/tune-points.csv is being written by another process (pid $a)"
  [ "$rc" -eq 2 ] && [ "$err" = "$want" ] \
    && ok "a second tune --out DIR while the first writes: exit 2, '$err'" \
    || no "second tune --out DIR: exit $rc, '$err' (want '$want')"
else
  no "the first tune never opened tune.gp: $(cat "$tmp/a.err")"
fi
timeout 10 cat "$d/apply.sh" > "$tmp/got.apply" & areader=$!
wait "$a"; ra=$?
wait "$areader" "$greader"; exec 7>&-
[ "$ra" -eq 0 ] && same_as_ref "$d/tune-points.csv" && same_as_ref "$d/tune.dat" \
  && cmp -s "$tmp/got.gp" "$tmp/ref/tune.gp" && cmp -s "$tmp/got.apply" "$tmp/ref/apply.sh" \
  && holds "$d" tune-points.csv tune.dat tune.gp apply.sh \
  && ok "the first tune --out DIR finished whole (exit 0)" \
  || no "the first tune --out DIR: exit $ra, $(cat "$tmp/a.err"), $(ls -lA "$d" | tr '\n' ' ')"

# ---- standard output -----------------------------------------------------------

check_stdout() {   # NAME ARGS...: `> /dev/full` exits 2 with the reason
  local name="$1" err rc; shift
  err="$(rx "$@" 2>&1 >/dev/full)"; rc=$?
  if [ "$rc" -eq 2 ] && [ "$(tail -n 1 <<<"$err")" = \
     "rxlab: cannot write standard output: No space left on device" ] \
     && [ "$(grep -c 'cannot write standard output' <<<"$err")" -eq 1 ]; then
    ok "$name > /dev/full: exit 2, one message"
  else no "$name > /dev/full: exit $rc, '$err'"; fi
}
check_stdout help help
check_stdout --help --help
check_stdout scenarios scenarios
check_stdout "run livelock" run livelock --set run.duration=20ms --set run.warmup=2ms
check_stdout "sweep (text)" sweep livelock --set run.duration=20ms --set run.warmup=2ms \
  --vary traffic.rate=50kpps,100kpps
check_stdout "merge (stdout)" "${merge[@]}"
check_stdout "tune (stdout)" "${tune[@]}"
err="$(rx help 2>&1 >&-)"; rc=$?
[ "$rc" -eq 2 ] && [ "$err" = "rxlab: cannot write standard output: Bad file descriptor" ] \
  && ok "help with stdout closed: exit 2, '$err'" || no "help >&-: exit $rc, '$err'"
rx help > /dev/null && rx scenarios > /dev/null && ok "help, scenarios > /dev/null: exit 0" \
  || no "help > /dev/null fails"

[ "$fails" -eq 0 ] && echo "all outfile checks passed" || echo "$fails outfile check(s) failed"
[ "$fails" -eq 0 ]
