module github.com/pulumi-etl/pulumi-etl/sdk/go

go 1.22

require github.com/pulumi/pulumi/sdk/v3 v3.259.0
