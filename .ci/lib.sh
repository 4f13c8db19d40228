# shellcheck shell=bash
# Shared by the .ci scripts (sourced, not run).

fail() { echo "${0##*/}: $*" >&2; exit 1; }

# builder_image: the image of the Dockerfile's build stage,
# "FROM [--platform=…] golang:X.Y.Z-<variant> AS build".
builder_image() {
  local image
  image=$(sed -nE 's/^FROM[[:space:]]+(--platform=[^[:space:]]+[[:space:]]+)?(golang:[^[:space:]]+)[[:space:]]+AS[[:space:]]+build[[:space:]]*$/\2/Ip' Dockerfile | sed -n 1p)
  [ -n "$image" ] || fail "Dockerfile: no builder stage 'FROM golang:X.Y.Z-alpine AS build'"
  echo "$image"
}

# builder_go: the Go release of the builder image, X.Y.Z.
builder_go() {
  local image v
  image=$(builder_image) || exit 1
  v=$(sed -nE 's/^golang:([0-9]+\.[0-9]+\.[0-9]+)(-[a-z0-9.]+)?$/\1/p' <<<"$image")
  [ -n "$v" ] || fail "Dockerfile: the builder image $image does not pin a Go release; write golang:X.Y.Z-alpine (a floating tag builds with whatever Go it points at that day)"
  echo "$v"
}
