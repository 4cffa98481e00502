// Command codegen writes a Pulumi package's SDK for one language from its schema, with the
// code generators of github.com/pulumi/pulumi/pkg/v3 (the ones `pulumi package gen-sdk` runs):
//
//	codegen <schema.json> <nodejs|python|go> <output directory>
//
// The output directory is emptied first, so it holds exactly what the schema makes.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

const tool = "pulumi-etl"

// noReferences refuses every other package: the schema refers to none.
type noReferences struct{}

var errNoReferences = errors.New("the schema may not refer to other packages")

func (noReferences) LoadPackage(string, *semver.Version) (*schema.Package, error) {
	return nil, errNoReferences
}

func (noReferences) LoadPackageV2(context.Context, *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, errNoReferences
}

func (noReferences) LoadPackageReference(string, *semver.Version) (schema.PackageReference, error) {
	return nil, errNoReferences
}

func (noReferences) LoadPackageReferenceV2(context.Context, *schema.PackageDescriptor) (schema.PackageReference, error) {
	return nil, errNoReferences
}

func generate(pkg *schema.Package, language string) (map[string][]byte, error) {
	switch language {
	case "nodejs":
		return nodejs.GeneratePackage(tool, pkg, nil, nil, false, noReferences{})
	case "python":
		return python.GeneratePackage(tool, pkg, nil, noReferences{})
	case "go":
		return gogen.GeneratePackage(tool, pkg, nil)
	default:
		return nil, fmt.Errorf("unknown language %q: use nodejs, python or go", language)
	}
}

func run(schemaPath, language, output string) error {
	text, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return fmt.Errorf("%s: %w", schemaPath, err)
	}
	pkg, diags, err := schema.BindSpec(spec, noReferences{}, schema.ValidationOptions{})
	if err != nil {
		return err
	}
	if diags.HasErrors() {
		return fmt.Errorf("the schema is not valid: %s", diags.Error())
	}
	files, err := generate(pkg, language)
	if err != nil {
		return err
	}
	if err := os.RemoveAll(output); err != nil {
		return err
	}
	for name, content := range files {
		path := filepath.Join(output, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, content, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: codegen <schema.json> <nodejs|python|go> <output directory>")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2], os.Args[3]); err != nil {
		fmt.Fprintf(os.Stderr, "codegen: %v\n", err)
		os.Exit(1)
	}
}
