#!/bin/sh
# An after hook: runs after its test whatever the verdict, with the
# attempt's result on stdin ({"schema": "ananke.attempt/v1", "status", ...}).
# $1 is the customer before_all set.
result=$(cat)
case "$result" in
  *'"status":"pass"'*|*'"status":"fail"'*) exit 0 ;;
esac
echo "cleanup for $1: the test did not run to a verdict" >&2
exit 1
