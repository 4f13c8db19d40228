module github.com/ananke/action

go 1.25.0

require (
	github.com/bmatcuk/doublestar/v4 v4.10.4
	github.com/evanphx/json-patch/v5 v5.9.11
	github.com/jstemmer/go-junit-report/v2 v2.1.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/tmaxmax/go-sse v0.11.0
	gopkg.in/yaml.v3 v3.0.1
)

require golang.org/x/text v0.14.0 // indirect
