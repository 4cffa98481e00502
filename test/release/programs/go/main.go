// A connection through the released Go SDK: its name from the stack's settings, its password a
// secret.
package main

import (
	"github.com/pulumi-etl/pulumi-etl/sdk/go/etl"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "test")
		warehouse, err := etl.NewConnection(ctx, "warehouse", &etl.ConnectionArgs{
			Type:     pulumi.String("postgres"),
			Name:     pulumi.String(cfg.Require("connectionName")),
			Host:     pulumi.String("warehouse.db.example.com"),
			Username: pulumi.String("etl"),
			Password: cfg.RequireSecret("password"),
		})
		if err != nil {
			return err
		}
		ctx.Export("connectionId", warehouse.ID())
		return nil
	})
}
