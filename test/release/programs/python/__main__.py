"""A connection and a pipeline through the released Python SDK: the connection's name and the
pipeline's cron from the stack's settings, the password a secret; the pipeline runs daily in a
time zone and alerts a web hook on failure."""
import pulumi
import pulumi_etl as etl

config = pulumi.Config("test")

warehouse = etl.Connection(
    "warehouse",
    type="postgres",
    name=config.require("connectionName"),
    host="warehouse.db.example.com",
    username="etl",
    password=config.require_secret("password"),
)

rollup = etl.Pipeline(
    "rollup",
    name="orders rollup",
    schedule=etl.PipelineScheduleArgs(cron=config.require("pipelineCron"), time_zone="New Delhi"),
    cluster=etl.PipelineClusterArgs(nodes=3),
    failure_alert=etl.PipelineFailureAlertArgs(type="web", settings={"url": "https://alerts.example.com/etl"}),
)

pulumi.export("connectionId", warehouse.id)
pulumi.export("pipelinePackageId", rollup.package_id)
pulumi.export("pipelineScheduleId", rollup.schedule_id)
pulumi.export("pipelineHookId", rollup.hook_id)
