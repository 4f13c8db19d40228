#!/bin/sh
# A script assertion: passes when the transcript (stdin) holds $1.
if grep -qF -- "$1"; then
  exit 0
fi
echo "the transcript has no $1"
exit 1
