/**
 * The platform team's rules for ETL stacks, on programs of either surface of pulumi-etl (the
 * plugin's SDKs in any language, and the dynamic resources of a TypeScript program). Each rule's
 * enforcement level and settings come from a policy config file (`--policy-pack-config`).
 */
import { PolicyPack } from "@pulumi/policy";
import { adminDomain } from "./rules/admin-domain";
import { clusterNodes } from "./rules/cluster-nodes";
import { connectionSecrets } from "./rules/connection-secrets";
import { hookHttps } from "./rules/hook-https";
import { packageFlow } from "./rules/package-flow";
import { productionAlert } from "./rules/production-alert";

new PolicyPack("etl-platform", {
  description: "ETL stacks: https hooks, cluster sizes, failure alerts in production, secrets, valid flows, admin domains.",
  policies: [hookHttps, clusterNodes, productionAlert, connectionSecrets, packageFlow, adminDomain],
});
