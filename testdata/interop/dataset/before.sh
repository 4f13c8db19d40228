#!/bin/sh
# before CITY: a case's own hook; its output sets ${CITY}.
printf '{"CITY": "%s"}\n' "$1"
