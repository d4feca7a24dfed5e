#!/usr/bin/env bash
# purity.sh [--sanitized] [--expect N] OBJ... - fail unless every object
# references only symbols a pure core may reference.
#
# DESIGN.md: src/core has no system calls, no clock reads, no libc I/O, no
# allocation, no assert/abort.  An object's undefined symbols (nm -u) are
# exactly what it can call or read from outside, so each must be on the list
# below.  Exit 0 when every object is clean; 1 when an object references
# anything else, when nm fails on one (a missing file, not an object, two
# paths pasted into one argument), when no object is given, or when --expect
# N is given and the number of objects is not N (a build that silently
# checks fewer objects than src/core has).
#
# --sanitized: the objects come from the -fsanitize=address,undefined build
# (RXLAB_SANITIZE), which adds the instrumentation entry points named below.
# They are accepted only with this flag: in any other build they mean the
# object is not what the build says it is.
set -u

# What the compilers emit on their own, and what the core may call:
base=(
	# Struct copies, initialisers and large zeroing are compiled into calls
	# of these four even where the source calls none (GCC documents that a
	# freestanding program must provide them).  They touch only the memory
	# the caller passes: no OS, no allocation.
	memcpy memset memmove memcmp
	# Math: sqrt is correctly rounded by IEEE 754, so it gives the same
	# bytes on every machine (the determinism contract).  log, exp, pow ...
	# are not correctly rounded and differ between libm versions: they are
	# NOT allowed (rng.c carries its own det_log for this reason).
	sqrt
	# -fstack-protector(-strong), on by default in Ubuntu's and Fedora's
	# gcc, calls this when a canary is overwritten: emitted by the
	# compiler, not by core code, and never reached by a correct program.
	__stack_chk_fail
	# Not a function: the linker-defined base that position-independent
	# code addresses its own data from.
	_GLOBAL_OFFSET_TABLE_
)

# -fsanitize=address: the instrumentation of every load and store, the
# module constructor's registration calls, and the "fake stack" that
# detect_stack_use_after_return moves locals to (__asan_stack_malloc_N is
# stack frames, not the heap).  clang routes memcpy/memset/memmove through
# __asan_mem*.
asan='__asan_(report_(load|store)(1|2|4|8|16|_n)|init|version_mismatch_check_v[0-9]+|register_globals|unregister_globals|handle_no_return|option_detect_stack_use_after_return|stack_malloc_[0-9]+|stack_free_[0-9]+|set_shadow_[0-9a-f]+|memcpy|memset|memmove)'
# -fsanitize=undefined with -fno-sanitize-recover=all: one handler per check
# (the _abort variants: they report the undefined behaviour and stop).
# builtin_unreachable and missing_return have no recoverable form, hence no
# _abort suffix.
ubsan='__ubsan_handle_((add|sub|mul|negate|divrem)_overflow|shift_out_of_bounds|out_of_bounds|type_mismatch_v1|pointer_overflow|load_invalid_value|nonnull_arg|nonnull_return_v1|invalid_builtin|float_cast_overflow|vla_bound_not_positive|implicit_conversion|alignment_assumption)_abort|__ubsan_handle_(builtin_unreachable|missing_return)'

sanitized=0
expect=""
while [ $# -gt 0 ]; do
	case "$1" in
	--sanitized) sanitized=1; shift ;;
	--expect) expect="$2"; shift 2 ;;
	--) shift; break ;;
	*) break ;;
	esac
done

allowed="^($(IFS='|'; echo "${base[*]}"))\$"
[ "$sanitized" -eq 1 ] && allowed="^($(IFS='|'; echo "${base[*]}")|$asan|$ubsan)\$"

if [ $# -eq 0 ]; then
	echo "purity: FAIL: no core objects given"
	exit 1
fi
if [ -n "$expect" ] && [ "$#" -ne "$expect" ]; then
	echo "purity: FAIL: $# objects given, expected $expect (one per src/core/*.c)"
	exit 1
fi

# One core module may call another (flowdist.c draws with rng.c): a symbol
# defined by one of the objects given is allowed, since that object is
# itself checked here.  Unreadable objects are reported by the loop below.
declare -A core_defined=()
for obj in "$@"; do
	while read -r sym; do
		[ -n "$sym" ] && core_defined[$sym]=1
	done < <(nm --defined-only -g -- "$obj" 2>/dev/null | awk 'NF == 3 {print $3}')
done

errs="$(mktemp)"
trap 'rm -f "$errs"' EXIT
status=0
for obj in "$@"; do
	if ! syms="$(nm -u -- "$obj" 2>"$errs")"; then
		echo "purity: FAIL: nm cannot read '$obj': $(tr '\n' ' ' <"$errs")"
		status=1
		continue
	fi
	# "nm -u" prints "                 U name" (name@VERSION in shared objects).
	while read -r sym; do
		[ -z "$sym" ] && continue
		if ! [[ $sym =~ $allowed ]] && [ -z "${core_defined[$sym]:-}" ]; then
			echo "purity: FAIL: $(basename "$obj") references '$sym' (not allowed in src/core)"
			status=1
		fi
	done < <(printf '%s\n' "$syms" | awk 'NF {print $NF}' | sed 's/@.*//')
done
if [ $status -eq 0 ]; then
	what="plain build"
	[ "$sanitized" -eq 1 ] && what="sanitizer build"
	echo "purity: $# core objects reference only allowed symbols ($what)"
fi
exit $status
