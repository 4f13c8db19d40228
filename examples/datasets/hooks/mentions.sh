#!/bin/sh
# A script assertion: the scope's transcript ({"schema":
# "ananke.transcript/v1", "turns", "tool_calls", "text", ...}) is on stdin.
# Exit 0 passes; exit 1 fails with stdout as the message.
if grep -qF -- "$1"; then
  exit 0
fi
echo "the conversation never mentions $1"
exit 1
