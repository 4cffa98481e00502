"""A connection through the released Python SDK: its name from the stack's settings, its
password a secret."""
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

pulumi.export("connectionId", warehouse.id)
