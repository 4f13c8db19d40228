module github.com/ananke/action

go 1.26
