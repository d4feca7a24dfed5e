#!/usr/bin/env bash
# purity_mutation.sh PURITY [--sanitized] OBJ... - check that purity.sh
# fails when it should.
#
# OBJ are the objects of tests/purity/mutant_*.c, built with the flags of
# this build: each is a copy of src/core/napi.c plus one function that does
# what core must not.  mutant_none (the plain copy) must pass; mutant_SYM
# must fail, naming SYM (mutant_assert: __assert_fail).  Then purity.sh
# must fail on each way its input can be wrong: no object, a missing file,
# a file that is not an object, two objects pasted into one argument (the
# bug that made the purity test check nothing), fewer objects than
# --expect.
set -u
purity="$1"
shift
flags=()
if [ "${1:-}" = "--sanitized" ]; then
	flags=(--sanitized)
	shift
fi
fails=0
control=""

bad() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# expect_fail WHAT NEEDLE ARGS...: purity.sh ARGS exits 1 and says NEEDLE.
expect_fail() {
	local what="$1" needle="$2" out rc
	shift 2
	out="$(bash "$purity" "$@" 2>&1)"
	rc=$?
	if [ $rc -ne 1 ]; then
		bad "$what: purity.sh exited $rc, expected 1: $out"
	elif [[ $out != *"$needle"* ]]; then
		bad "$what: purity.sh failed but did not say \"$needle\": $out"
	else
		echo "ok: $what: $(printf '%s\n' "$out" | head -1)"
	fi
}

for obj in "$@"; do
	name="$(basename "$obj")"
	name="${name%.c.o}"
	name="${name%.o}"
	sym="${name#mutant_}"
	case "$sym" in
	none)
		control="$obj"
		if out="$(bash "$purity" "${flags[@]}" "$obj" 2>&1)"; then
			echo "ok: the unmutated copy passes: $out"
		else
			bad "the unmutated copy of a core object fails: $out"
		fi
		continue
		;;
	assert) sym=__assert_fail ;;
	esac
	expect_fail "$name" "references '$sym'" "${flags[@]}" "$obj"
done

[ -n "$control" ] || bad "no mutant_none object given"
[ "$#" -ge 6 ] || bad "$# mutant objects given, expected at least 6"
if [ -n "$control" ]; then
	tmp="$(mktemp -d)"
	trap 'rm -rf "$tmp"' EXIT
	echo 'not an object' >"$tmp/text.o"
	expect_fail "no object" "no core objects" "${flags[@]}"
	expect_fail "missing file" "nm cannot read" "${flags[@]}" "$tmp/absent.o"
	expect_fail "not an object" "nm cannot read" "${flags[@]}" "$tmp/text.o"
	expect_fail "two paths in one argument" "nm cannot read" "${flags[@]}" "$control;$control"
	expect_fail "fewer objects than expected" "expected 2" "${flags[@]}" --expect 2 "$control"
	if ! bash "$purity" "${flags[@]}" --expect 2 "$control" "$control" >/dev/null; then
		bad "--expect 2 with two clean objects fails"
	fi
fi
if [ -n "$control" ] && [ "${#flags[@]}" -eq 0 ]; then
	# Outside the sanitizer build, sanitizer entry points are not allowed.
	printf 'extern void __asan_init(void);\nvoid f(void);\nvoid f(void) { __asan_init(); }\n' >"$tmp/asan.c"
	if ${CC:-cc} -c "$tmp/asan.c" -o "$tmp/asan.o" 2>/dev/null; then
		expect_fail "sanitizer symbol in a plain build" "references '__asan_init'" "$tmp/asan.o"
	fi
fi
[ $fails -eq 0 ] && echo "purity_mutation: every mutation is caught"
[ $fails -eq 0 ]
