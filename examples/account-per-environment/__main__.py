"""An account per environment.

The stack's own provider (the `etl:*` settings) reaches the platform team's account. The
staging account is made from there; its connection is declared through a provider whose
account is the new account's slug, with the same address and API key, so the connection is
made in the new account once it exists.
"""
import pulumi
import pulumi_etl as etl

settings = pulumi.Config("etl")
config = pulumi.Config()

staging = etl.Account(
    "staging",
    name="analytics staging",
    region="amazon-web-services::us-east-1",
    slug=config.get("stagingSlug") or "analytics-staging",
)

in_staging = etl.Provider(
    "in-staging",
    api_url=settings.require("apiUrl"),
    api_key=settings.require_secret("apiKey"),
    account_id=staging.slug,
)

warehouse = etl.Connection(
    "warehouse",
    type="postgres",
    name="warehouse",
    host="staging-db.example.com",
    database="analytics",
    username="etl_loader",
    password=config.require_secret("warehousePassword"),
    opts=pulumi.ResourceOptions(provider=in_staging),
)

pulumi.export("stagingSlug", staging.slug)
pulumi.export("stagingNumber", staging.number)
pulumi.export("warehouseId", warehouse.id)
