#!/bin/sh
# after_all: runs once after the last test with the run's outcome on stdin
# ({"schema": "ananke.outcome/v1", "status", "totals", "tests"}); a real
# suite would clean a database here. Ananke shows its stderr if it fails.
outcome=$(cat)
case "$outcome" in
  *'"schema":"ananke.outcome/v1"'*) exit 0 ;;
esac
echo "after_all read no outcome: $outcome" >&2
exit 1
