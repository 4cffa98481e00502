//go:build tools

// Package engine pins the Pulumi CLI so `go build` can build it from this module.
package engine

import _ "github.com/pulumi/pulumi/pkg/v3/cmd/pulumi"
