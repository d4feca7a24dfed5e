#!/bin/sh
# symbols_mutation.sh SYMBOLS_SH CORE.a MODEL.a SIM.a - the symbol check
# must pass core < model < sim and fail, naming sim's call into model,
# when model is ranked above sim.
set -eu
check=$1 core=$2 model=$3 sim=$4
sh "$check" "core=$core" "model=$model" "sim=$sim" >/dev/null ||
	{ echo "FAIL: core < model < sim does not pass"; exit 1; }
set +e
out=$(sh "$check" "core=$core" "sim=$sim" "model=$model")
rc=$?
set -e
[ "$rc" -eq 1 ] || { echo "FAIL: swapped layers exit $rc, not 1: $out"; exit 1; }
case $out in *"sim: "*" -> model"*) ;; *) echo "FAIL: not named: $out"; exit 1 ;; esac
echo "symbol check: fails when model is ranked above sim"
