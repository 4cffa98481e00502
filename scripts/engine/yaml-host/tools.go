//go:build tools

// Package yamlhost pins the YAML language host so `go build` can build it from this module.
package yamlhost

import (
	_ "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml"
)
