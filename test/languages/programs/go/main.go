// The language lifecycle's program in Go through the generated SDK: a key, a connection with a
// secret password, a schedule, a job run and a package, and two functions; resources given as
// inputs: connections to a group and a delivery, the package to the schedule, a cluster to the
// job run; and a Pipeline on the cron the stack's settings give, daily in a time zone, alerting a
// web hook on failure.
package main

import (
	"github.com/pulumi-etl/pulumi-etl/sdk/go/etl"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "test")
		deploy, err := etl.NewPublicKey(ctx, "deploy", &etl.PublicKeyArgs{
			PublicKey: pulumi.String(cfg.Require("keyLine")),
			Name:      pulumi.String(cfg.Require("keyName")),
		})
		if err != nil {
			return err
		}
		warehouse, err := etl.NewConnection(ctx, "warehouse", &etl.ConnectionArgs{
			Type:     pulumi.String("postgres"),
			Name:     pulumi.String(cfg.Require("connectionName")),
			Host:     pulumi.String("warehouse.db.example.com"),
			Username: pulumi.String("etl"),
			Password: cfg.RequireSecret("password"),
			Database: pulumi.String("analytics"),
		})
		if err != nil {
			return err
		}
		bucket, err := etl.NewConnection(ctx, "bucket", &etl.ConnectionArgs{
			Type:     pulumi.String("s3"),
			Name:     pulumi.String("bucket"),
			Username: pulumi.String("AKIAEXAMPLE"),
			Password: cfg.RequireSecret("password"),
		})
		if err != nil {
			return err
		}
		group, err := etl.NewConnectionGroup(ctx, "analytics", &etl.ConnectionGroupArgs{
			Name:        pulumi.String("analytics"),
			Connections: pulumi.Array{warehouse, bucket},
		})
		if err != nil {
			return err
		}
		delivery, err := etl.NewDelivery(ctx, "orders", &etl.DeliveryArgs{
			Interval:    &etl.DeliveryIntervalArgs{Amount: pulumi.Float64(1), Unit: pulumi.String("days")},
			Source:      &etl.DeliverySourceArgs{Connection: warehouse, Properties: pulumi.Map{"table": pulumi.String("orders")}},
			Destination: &etl.DeliveryDestinationArgs{Connection: bucket, Properties: pulumi.Map{"path": pulumi.String("orders/")}},
		})
		if err != nil {
			return err
		}
		compute, err := etl.NewCluster(ctx, "compute", &etl.ClusterArgs{Nodes: pulumi.Float64(1), Name: pulumi.String("compute")})
		if err != nil {
			return err
		}
		backfill, err := etl.NewJobRun(ctx, "backfill", &etl.JobRunArgs{ClusterId: compute, PackageId: pulumi.Any(101)})
		if err != nil {
			return err
		}
		flowConnection := pulumi.Map{"id": warehouse.ID()}
		copyOrders, err := etl.NewPackage(ctx, "copy", &etl.PackageArgs{
			Name: pulumi.String("copy orders"),
			DataFlow: pulumi.Map{
				"components": pulumi.Array{
					pulumi.Map{"name": pulumi.String("rows"), "type": pulumi.String("source"), "connection": flowConnection, "table": pulumi.String("orders")},
					pulumi.Map{"name": pulumi.String("copy"), "type": pulumi.String("destination"), "connection": flowConnection, "table": pulumi.String("orders_copy")},
				},
				"edges": pulumi.Array{pulumi.Map{"from": pulumi.String("rows"), "to": pulumi.String("copy")}},
			},
		})
		if err != nil {
			return err
		}
		nightly, err := etl.NewSchedule(ctx, "nightly", &etl.ScheduleArgs{
			Name:     pulumi.String(cfg.Require("scheduleName")),
			Interval: &etl.ScheduleIntervalArgs{Amount: pulumi.Float64(1), Unit: pulumi.String("days")},
			Task: &etl.ScheduleTaskArgs{
				Nodes:    pulumi.Any(2),
				Packages: pulumi.Array{pulumi.Map{"packageId": copyOrders}},
			},
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
		found, err := etl.LookupPackage(ctx, &etl.LookupPackageArgs{PackageId: 101})
		if err != nil {
			return err
		}
		regionType := "s3"
		regions, err := etl.GetRegions(ctx, &etl.GetRegionsArgs{Type: &regionType})
		if err != nil {
			return err
		}
		ctx.Export("keyId", deploy.ID())
		ctx.Export("fingerprint", deploy.Fingerprint)
		ctx.Export("warehouseId", warehouse.ID())
		ctx.Export("password", warehouse.Password)
		ctx.Export("scheduleId", nightly.ID())
		ctx.Export("jobStatus", backfill.Status)
		ctx.Export("jobClusterId", backfill.ClusterId)
		ctx.Export("clusterId", compute.ID())
		ctx.Export("groupId", group.ID())
		ctx.Export("deliverySource", delivery.Source)
		ctx.Export("deliveryDestination", delivery.Destination)
		ctx.Export("bucketId", bucket.ID())
		ctx.Export("packageId", copyOrders.ID())
		ctx.Export("scheduleTask", nightly.Task)
		ctx.Export("packageValidation", copyOrders.ValidationStatus)
		ctx.Export("packageName", pulumi.String(found.Name))
		ctx.Export("regionCount", pulumi.Int(len(regions.Items)))
		ctx.Export("pipelinePackageId", rollup.PackageId)
		ctx.Export("pipelineScheduleId", rollup.ScheduleId)
		ctx.Export("pipelineHookId", rollup.HookId)
		return nil
	})
}
