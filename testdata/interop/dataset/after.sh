#!/bin/sh
# after RUN_TAG ID: keeps the case's result (stdin) in $DATASET_OUT.
out="${DATASET_OUT:-${TMPDIR:-/tmp}}"
cat > "$out/after-$1-$2.json"
