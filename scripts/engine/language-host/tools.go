//go:build tools

// Package languagehost pins the Node.js language host so `go build` can build it from this module.
package languagehost

import _ "github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs"
