# The GitHub Action's image. The build stage compiles a static binary; the
# final image is Alpine (a few MB) because hooks are scripts: it keeps a
# shell, bash, curl and jq for them, and CA certificates for api.github.com,
# the artifact service and HTTPS agents. It runs as root with an absolute
# exec-form entrypoint, as GitHub's Dockerfile rules ask; GitHub sets the
# working directory (the workspace) itself.
FROM golang:1.25-alpine AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X github.com/ananke/action/internal/cli.version=${VERSION}" -o /out/ananke .

FROM alpine:3.20
RUN apk add --no-cache ca-certificates bash curl jq
COPY --from=build /out/ananke /usr/local/bin/ananke
ENTRYPOINT ["/usr/local/bin/ananke"]
