"""The quickstart in Python: two connections in a group, a deploy key, a nightly schedule and a
hook for failed jobs, through the plugin and its Python SDK. The defaults match the
emulator's default account."""
import os

import pulumi
import pulumi_etl as etl

config = pulumi.Config()

# Where curated data lands. The passwords come from the stack's secrets
# (`pulumi config set --secret warehousePassword ...`) and are stored only encrypted.
warehouse = etl.Connection(
    "warehouse",
    type="postgres",
    name="warehouse",
    host=config.get("warehouseHost") or "warehouse.db.example.com",
    database="analytics",
    username="etl_loader",
    password=config.require_secret("warehousePassword"),
)
bucket = etl.Connection(
    "landing-bucket",
    type="s3",
    name="landing-bucket",
    username="AKIAQUICKSTART0000001",
    password=config.require_secret("bucketSecretKey"),
    region="eu-west-1",
)

# The destinations the analytics team may load into, as one group.
warehouses = etl.ConnectionGroup(
    "analytics-warehouses",
    name="analytics-warehouses",
    description="Curated destinations for the analytics team",
    connections=[{"id": warehouse.id, "type": "postgres"}, {"id": bucket.id, "type": "s3"}],
)

# The public half of the key that deployments use to reach cluster machines.
with open(os.path.join(os.path.dirname(__file__), "deploy_key.pub"), encoding="utf-8") as key_file:
    deploy_key = etl.PublicKey("deploy-key", public_key=key_file.read(), name="quickstart deploy key")

# The orders rollup, every night at 02:00 UTC, on a cluster the schedule makes for it.
rollup = etl.get_package(package_id=config.get_int("rollupPackageId") or 101)
nightly = etl.Schedule(
    "nightly-rollup",
    name="nightly orders rollup",
    start_at="2030-01-01T02:00:00Z",
    interval=etl.ScheduleIntervalArgs(amount=1, unit="days"),
    overlap=False,
    task=etl.ScheduleTaskArgs(nodes=2, packages=[{"packageId": rollup.id}]),
)

# Failed jobs are posted to the alerting endpoint, signed with the hook's salt.
failures = etl.Hook(
    "failed-jobs",
    type="web",
    name="failed jobs",
    events=["job.failed"],
    settings={"url": config.get("alertUrl") or "https://alerts.example.com/etl"},
)

pulumi.export("deployKeyFingerprint", deploy_key.fingerprint)
pulumi.export("connectionGroupConnections", warehouses.connections.apply(lambda connections: sorted(c["name"] for c in connections)))
pulumi.export("rollupPackage", rollup.name)
pulumi.export("scheduleId", nightly.id)
pulumi.export("nextRunAt", nightly.next_run_at)
pulumi.export("hookId", failures.id)
