//go:build tools

// Package languagehost pins the language hosts (Node.js, Python, Go) so `go build` can build them
// from this module.
package languagehost

import (
	_ "github.com/pulumi/pulumi/sdk/v3/go/pulumi-language-go"
	_ "github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs"
	_ "github.com/pulumi/pulumi/sdk/v3/python/cmd/pulumi-language-python"
)
