# The GitHub Action's image, also published as ghcr.io/ananke/action by the
# release workflow (multi-arch). The build stage compiles a static binary;
# the final image is Alpine because hooks are scripts: it keeps sh, bash,
# curl and jq for them, and the CA bundle for api.github.com, the artifact
# service and HTTPS agents. It runs as root with an absolute exec-form
# entrypoint and no WORKDIR, as GitHub's Dockerfile rules ask; GitHub sets
# the working directory (the workspace) itself.
#
# The builder's Go is pinned to a release: its image sets GOTOOLCHAIN=local,
# so it must be at least go.mod's go line. .ci/gocheck proves the module
# builds and vets with exactly this Go; the budget job in ci.yml keeps the
# image under 30 MB.
FROM --platform=$BUILDPLATFORM golang:1.26.11-alpine AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# Cross-compiled on the build platform: a multi-arch build runs no Go under
# emulation.
ARG TARGETOS
ARG TARGETARCH
ARG VERSION=dev
ARG COMMIT=
RUN CGO_ENABLED=0 GOOS=$TARGETOS GOARCH=$TARGETARCH go build -trimpath \
    -ldflags "-s -w -X github.com/ananke/action/internal/cli.version=${VERSION} -X github.com/ananke/action/internal/cli.commit=${COMMIT}" \
    -o /out/ananke ./cmd/ananke

FROM alpine:3.22
RUN apk add --no-cache bash curl jq ca-certificates-bundle
COPY --from=build /out/ananke /usr/local/bin/ananke
ENTRYPOINT ["/usr/local/bin/ananke"]
