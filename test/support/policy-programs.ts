/**
 * Programs for the policy pack's tests, on either surface: one that breaks every rule it can
 * and one that follows them all, of the same resources, a `Pipeline` among them.
 */
import type { PulumiFn } from "@pulumi/pulumi/automation";
import { RESOURCE_EXAMPLES } from "pulumi-etl/plugin";
import { declare, declarePipeline, type Surface } from "./surfaces";

const SCHEDULE = { name: "nightly", startAt: "2030-01-01T02:00:00Z", interval: { amount: 1, unit: "days" } };

/** The reference pages' package: a flow whose filter uses the variable `since`. */
const FLOW = RESOURCE_EXAMPLES.Package.dataFlow;

const CONNECTION = { type: "postgres", name: "warehouse", host: "db.example.com", database: "analytics", username: "etl_loader" };

/** What each rule reads, given badly or well. */
interface Choices {
  hookUrl: string;
  hookEvents: string[];
  nodes: number;
  failureAlert?: { type: "web"; settings: Record<string, unknown>; events: "job.failed"[] };
  variables: Record<string, string>;
  adminEmail: string;
  password: string;
}

function program(surface: Surface, c: Choices): PulumiFn {
  return async () => {
    declare(surface, "Hook", "alerts", { type: "web", events: c.hookEvents, settings: { url: c.hookUrl } });
    declare(surface, "Cluster", "rollups", { nodes: c.nodes });
    declare(surface, "Schedule", "nightly", { ...SCHEDULE, task: { nodes: c.nodes, packages: [{ packageId: 101 }] } });
    declarePipeline(surface, "orders", {
      name: "orders",
      schedule: { cron: "0 2 * * *" },
      cluster: { nodes: c.nodes },
      ...(c.failureAlert ? { failureAlert: c.failureAlert } : {}),
    });
    // The provider's own check is off: the platform's rule still holds.
    declare(surface, "Package", "recent-orders", { name: "recent orders", validate: false, dataFlow: FLOW, variables: c.variables });
    declare(surface, "Member", "ops-admin", { email: c.adminEmail, role: "admin" });
    declare(surface, "Connection", "warehouse", { ...CONNECTION, password: c.password });
  };
}

/** Every rule broken: http hook of no failure event, 50 nodes, no failure alert, a flow of an undefined variable, an outside admin, a plain password. */
export function breaksTheRules(surface: Surface): PulumiFn {
  return program(surface, {
    hookUrl: "http://alerts.example.com/etl",
    hookEvents: ["cluster"],
    nodes: 50,
    variables: {},
    adminEmail: "eve@elsewhere.example",
    password: "hunter2",
  });
}

/** Every rule followed; the password is still a literal, which both surfaces send as a secret. */
export function followsTheRules(surface: Surface): PulumiFn {
  return program(surface, {
    hookUrl: "https://alerts.example.com/etl",
    hookEvents: ["job.failed"],
    nodes: 4,
    failureAlert: { type: "web", settings: { url: "https://alerts.example.com/orders" }, events: ["job.failed"] },
    variables: { since: "2026-01-01" },
    adminEmail: "ana@corp.example",
    password: "hunter2",
  });
}

/** The allowed admin domain of the programs that follow the rules. */
export const ADMIN_DOMAIN = "corp.example";
