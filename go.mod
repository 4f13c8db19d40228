module github.com/ananke/action

go 1.25.0

require (
	github.com/bmatcuk/doublestar/v4 v4.10.4
	gopkg.in/yaml.v3 v3.0.1
)
