module ${PROJECT}

go 1.26.6

require (
	github.com/pulumi-etl/pulumi-etl/sdk/go v0.1.0
	github.com/pulumi/pulumi/sdk/v3 v3.276.0
)
