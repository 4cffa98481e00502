"""A warehouse the service reads from and writes to, and a daily pipeline on it: a package from the
service's "Daily rollup" template, its schedule and cluster, and a hook that is told of failed
runs. `pulumi preview` shows each; `pulumi up` makes them."""
import pulumi
import pulumi_etl as etl

config = pulumi.Config()

# The password is the stack's secret (`pulumi config set --secret warehousePassword ...`), stored
# only encrypted; the service tries the settings before it creates the connection.
warehouse = etl.Connection(
    "warehouse",
    type="postgres",
    name="warehouse",
    host=config.get("warehouseHost") or "warehouse.db.example.com",
    database="analytics",
    username="etl_loader",
    password=config.require_secret("warehousePassword"),
)

# Every day at 06:00 UTC (`time_zone` takes another zone) on two nodes of a cluster of its own;
# a failed run is posted to the alert address.
rollup = etl.Pipeline(
    "daily-rollup",
    name="daily rollup",
    template=etl.PipelineTemplateArgs(id=2, source_connection_id=warehouse.id, destination_connection_id=warehouse.id),
    schedule=etl.PipelineScheduleArgs(cron="0 6 * * *"),
    cluster=etl.PipelineClusterArgs(nodes=2, reuse="self"),
    failure_alert=etl.PipelineFailureAlertArgs(
        type="web", settings={"url": config.get("alertUrl") or "https://alerts.example.com/etl"}
    ),
)

pulumi.export("warehouseId", warehouse.id)
pulumi.export("packageId", rollup.package_id)
pulumi.export("scheduleId", rollup.schedule_id)
pulumi.export("nextRunAt", rollup.next_run_at)
pulumi.export("alertHookId", rollup.hook_id)
