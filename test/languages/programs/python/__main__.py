"""The language lifecycle's program in Python: a key, a connection with a secret password, a
schedule, a job run and a package through the generated SDK, and two functions; resources given
as inputs: connections to a group and a delivery, the package to the schedule, a cluster to the
job run."""
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
bucket = etl.Connection("bucket", type="s3", name="bucket", username="AKIAEXAMPLE", password=config.require_secret("password"))
group = etl.ConnectionGroup("analytics", name="analytics", connections=[warehouse, bucket])
delivery = etl.Delivery(
    "orders",
    interval=etl.DeliveryIntervalArgs(amount=1, unit="days"),
    source=etl.DeliverySourceArgs(connection=warehouse, properties={"table": "orders"}),
    destination=etl.DeliveryDestinationArgs(connection=bucket, properties={"path": "orders/"}),
)
compute = etl.Cluster("compute", nodes=1, name="compute")
backfill = etl.JobRun("backfill", cluster_id=compute, package_id=101)
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
nightly = etl.Schedule(
    "nightly",
    name=config.require("scheduleName"),
    interval=etl.ScheduleIntervalArgs(amount=1, unit="days"),
    task=etl.ScheduleTaskArgs(nodes=2, packages=[{"packageId": copy}]),
)

found = etl.get_package(package_id=101)
regions = etl.get_regions(type="s3")

pulumi.export("keyId", deploy.id)
pulumi.export("fingerprint", deploy.fingerprint)
pulumi.export("warehouseId", warehouse.id)
pulumi.export("password", warehouse.password)
pulumi.export("scheduleId", nightly.id)
pulumi.export("jobStatus", backfill.status)
pulumi.export("jobClusterId", backfill.cluster_id)
pulumi.export("clusterId", compute.id)
pulumi.export("groupId", group.id)
pulumi.export("deliverySource", delivery.source)
pulumi.export("deliveryDestination", delivery.destination)
pulumi.export("bucketId", bucket.id)
pulumi.export("packageId", copy.id)
pulumi.export("scheduleTask", nightly.task)
pulumi.export("packageValidation", copy.validation_status)
pulumi.export("packageName", found.name)
pulumi.export("regionCount", len(regions.items))
