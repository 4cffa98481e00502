// A connection and a pipeline through the released Go SDK: the connection's name and the
// pipeline's cron from the stack's settings, the password a secret; the pipeline runs daily in a
// time zone and alerts a web hook on failure.
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
		rollup, err := etl.NewPipeline(ctx, "rollup", &etl.PipelineArgs{
			Name: pulumi.String("orders rollup"),
			Schedule: etl.PipelineScheduleArgs{
				Cron:     pulumi.String(cfg.Require("pipelineCron")),
				TimeZone: pulumi.String("New Delhi"),
			},
			Cluster: etl.PipelineClusterArgs{Nodes: pulumi.Int(3)},
			FailureAlert: etl.PipelineFailureAlertArgs{
				Type:     pulumi.String("web"),
				Settings: pulumi.Map{"url": pulumi.String("https://alerts.example.com/etl")},
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("connectionId", warehouse.ID())
		ctx.Export("pipelinePackageId", rollup.PackageId)
		ctx.Export("pipelineScheduleId", rollup.ScheduleId)
		ctx.Export("pipelineHookId", rollup.HookId)
		return nil
	})
}
