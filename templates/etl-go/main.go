// A warehouse the service reads from and writes to, and a daily pipeline on it: a package from the
// service's "Daily rollup" template, its schedule and cluster, and a hook that is told of failed
// runs. `pulumi preview` shows each; `pulumi up` makes them.
package main

import (
	"github.com/pulumi-etl/pulumi-etl/sdk/go/etl"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func orDefault(value, fallback string) string {
	if value == "" {
		return fallback
	}
	return value
}

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")

		// The password is the stack's secret (`pulumi config set --secret warehousePassword ...`),
		// stored only encrypted; the service tries the settings before it creates the connection.
		warehouse, err := etl.NewConnection(ctx, "warehouse", &etl.ConnectionArgs{
			Type:     pulumi.String("postgres"),
			Name:     pulumi.String("warehouse"),
			Host:     pulumi.String(orDefault(cfg.Get("warehouseHost"), "warehouse.db.example.com")),
			Database: pulumi.String("analytics"),
			Username: pulumi.String("etl_loader"),
			Password: cfg.RequireSecret("warehousePassword"),
		})
		if err != nil {
			return err
		}

		// Every day at 06:00 UTC (TimeZone takes another zone) on two nodes of a cluster of its
		// own; a failed run is posted to the alert address.
		rollup, err := etl.NewPipeline(ctx, "daily-rollup", &etl.PipelineArgs{
			Name:     pulumi.String("daily rollup"),
			Template: etl.PipelineTemplateArgs{Id: pulumi.Int(2), SourceConnectionId: warehouse.ID(), DestinationConnectionId: warehouse.ID()},
			Schedule: etl.PipelineScheduleArgs{Cron: pulumi.String("0 6 * * *")},
			Cluster:  etl.PipelineClusterArgs{Nodes: pulumi.Int(2), Reuse: pulumi.String("self")},
			FailureAlert: etl.PipelineFailureAlertArgs{
				Type:     pulumi.String("web"),
				Settings: pulumi.Map{"url": pulumi.String(orDefault(cfg.Get("alertUrl"), "https://alerts.example.com/etl"))},
			},
		})
		if err != nil {
			return err
		}

		ctx.Export("warehouseId", warehouse.ID())
		ctx.Export("packageId", rollup.PackageId)
		ctx.Export("scheduleId", rollup.ScheduleId)
		ctx.Export("nextRunAt", rollup.NextRunAt)
		ctx.Export("alertHookId", rollup.HookId)
		return nil
	})
}
