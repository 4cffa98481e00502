"""The language lifecycle's program in Python: a key, a connection with a secret password, a
schedule, a job run and a package through the generated SDK, and two functions."""
import pulumi
import pulumi_etl as etl

config = pulumi.Config("test")

deploy = etl.PublicKey("deploy", public_key=config.require("keyLine"), name=config.require("keyName"))
warehouse = etl.Connection(
    "warehouse",
    type="postgres",
    name="warehouse",
    host="warehouse.db.example.com",
    username="etl",
    password=config.require_secret("password"),
    database="analytics",
)
nightly = etl.Schedule(
    "nightly",
    name=config.require("scheduleName"),
    interval=etl.ScheduleIntervalArgs(amount=1, unit="days"),
    task=etl.ScheduleTaskArgs(nodes=2, packages=[{"packageId": "101"}]),
)
backfill = etl.JobRun("backfill", cluster_id=201, package_id=101)
copy = etl.Package(
    "copy",
    name="copy orders",
    data_flow={
        "components": [
            {"name": "rows", "type": "source", "connection": {"id": warehouse.id}, "table": "orders"},
            {"name": "copy", "type": "destination", "connection": {"id": warehouse.id}, "table": "orders_copy"},
        ],
        "edges": [{"from": "rows", "to": "copy"}],
    },
)

found = etl.get_package(package_id=101)
regions = etl.get_regions(type="s3")

pulumi.export("keyId", deploy.id)
pulumi.export("fingerprint", deploy.fingerprint)
pulumi.export("warehouseId", warehouse.id)
pulumi.export("password", warehouse.password)
pulumi.export("scheduleId", nightly.id)
pulumi.export("jobStatus", backfill.status)
pulumi.export("packageValidation", copy.validation_status)
pulumi.export("packageName", found.name)
pulumi.export("regionCount", len(regions.items))
