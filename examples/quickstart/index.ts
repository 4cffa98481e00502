import * as fs from "node:fs";
import * as path from "node:path";
import * as etl from "pulumi-etl";

// The public half of the key that deployments use to reach cluster machines.
const deployKey = new etl.PublicKey("deploy-key", {
  publicKey: fs.readFileSync(path.join(__dirname, "deploy_key.pub"), "utf8"),
  name: "quickstart deploy key",
});

export const deployKeyId = deployKey.id;
export const deployKeyName = deployKey.name;
export const deployKeyFingerprint = deployKey.fingerprint;
