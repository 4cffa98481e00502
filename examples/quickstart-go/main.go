// The quickstart in Go: two connections in a group, a deploy key, a nightly schedule and a hook
// for failed jobs, through the plugin and its Go SDK. The defaults match the emulator's
// default account.
package main

import (
	"os"

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

		// Where curated data lands. The passwords come from the stack's secrets
		// (`pulumi config set --secret warehousePassword ...`) and are stored only encrypted.
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
		bucket, err := etl.NewConnection(ctx, "landing-bucket", &etl.ConnectionArgs{
			Type:     pulumi.String("s3"),
			Name:     pulumi.String("landing-bucket"),
			Username: pulumi.String("AKIAQUICKSTART0000001"),
			Password: cfg.RequireSecret("bucketSecretKey"),
			Region:   pulumi.String("eu-west-1"),
		})
		if err != nil {
			return err
		}

		// The destinations the analytics team may load into, as one group.
		warehouses, err := etl.NewConnectionGroup(ctx, "analytics-warehouses", &etl.ConnectionGroupArgs{
			Name:        pulumi.String("analytics-warehouses"),
			Description: pulumi.String("Curated destinations for the analytics team"),
			Connections: pulumi.Array{
				pulumi.Map{"id": warehouse.ID(), "type": pulumi.String("postgres")},
				pulumi.Map{"id": bucket.ID(), "type": pulumi.String("s3")},
			},
		})
		if err != nil {
			return err
		}

		// The public half of the key that deployments use to reach cluster machines.
		keyLine, err := os.ReadFile("deploy_key.pub")
		if err != nil {
			return err
		}
		deployKey, err := etl.NewPublicKey(ctx, "deploy-key", &etl.PublicKeyArgs{
			PublicKey: pulumi.String(string(keyLine)),
			Name:      pulumi.String("quickstart deploy key"),
		})
		if err != nil {
			return err
		}

		// The orders rollup, every night at 02:00 UTC, on a cluster the schedule makes for it.
		packageID := 101
		if id, err := cfg.TryInt("rollupPackageId"); err == nil {
			packageID = id
		}
		rollup, err := etl.LookupPackage(ctx, &etl.LookupPackageArgs{PackageId: packageID})
		if err != nil {
			return err
		}
		nightly, err := etl.NewSchedule(ctx, "nightly-rollup", &etl.ScheduleArgs{
			Name:     pulumi.String("nightly orders rollup"),
			StartAt:  pulumi.String("2030-01-01T02:00:00Z"),
			Interval: &etl.ScheduleIntervalArgs{Amount: pulumi.Float64(1), Unit: pulumi.String("days")},
			Overlap:  pulumi.Bool(false),
			Task: &etl.ScheduleTaskArgs{
				Nodes:    pulumi.Any(2),
				Packages: pulumi.Array{pulumi.Any(map[string]interface{}{"packageId": rollup.Id})},
			},
		})
		if err != nil {
			return err
		}

		// Failed jobs are posted to the alerting endpoint, signed with the hook's salt.
		failures, err := etl.NewHook(ctx, "failed-jobs", &etl.HookArgs{
			Type:     pulumi.String("web"),
			Name:     pulumi.String("failed jobs"),
			Events:   pulumi.StringArray{pulumi.String("job.failed")},
			Settings: pulumi.Map{"url": pulumi.String(orDefault(cfg.Get("alertUrl"), "https://alerts.example.com/etl"))},
		})
		if err != nil {
			return err
		}

		ctx.Export("deployKeyFingerprint", deployKey.Fingerprint)
		ctx.Export("connectionGroupConnections", warehouses.Connections)
		ctx.Export("rollupPackage", pulumi.String(rollup.Name))
		ctx.Export("scheduleId", nightly.ID())
		ctx.Export("nextRunAt", nightly.NextRunAt)
		ctx.Export("hookId", failures.ID())
		return nil
	})
}
