/**
 * A resource's check on either surface, called in this process the way the engine calls it, and
 * its answer written as the engine prints it. The inputs travel as they do from a program: a
 * protobuf struct, without what the program left undefined, and on the plugin (which accepts
 * secrets) an input the program marked secret wrapped as one; the dynamic provider host accepts
 * no secrets and is given the plain value.
 */
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as providerProto from "@pulumi/pulumi/proto/provider_pb";
import type { ResourceKind } from "pulumi-etl/plugin";
import { processResources } from "../../provider/context";
import { withProvider } from "../../provider/dynamic";
import { providerService } from "../../provider/plugin/service";
import { SECRET_SIGNATURE, SPECIAL_SIGNATURE } from "../../provider/plugin/values";
import type { BadInput } from "../kinds";
import { type Surface, typeOf } from "./surfaces";

interface Failure {
  property: string;
  reason: string;
}

export interface CheckOutcome {
  /** What the engine prints of the answer: each failure as a diagnostic, or the error the call ended with. */
  output: string;
  /** The failures' reasons, which the engine prints as they are. */
  reasons: string[];
}

type Case = BadInput & { kind: ResourceKind };

/** The inputs as the engine passes them on: what a struct holds. */
const overTheWire = (inputs: Record<string, unknown>): Record<string, unknown> => Struct.fromJavaScript(JSON.parse(JSON.stringify(inputs))).toJavaScript();

/**
 * The engine's diagnostics for a check's failures: one naming the property prints its value (the
 * program's, here as JSON, which shows at least what the engine would), one without names only the resource.
 */
function asTheEngineShows(surface: Surface, test: Case, failures: Failure[]): CheckOutcome {
  const resource = `${typeOf(surface, test.kind)} resource 'subject'`;
  const lines = failures.map(({ property, reason }) =>
    property === ""
      ? `error: ${resource} has a problem: ${reason}`
      : `error: ${resource}: property ${property} value {${JSON.stringify(test.inputs[property])}} has a problem: ${reason}`,
  );
  return { output: lines.join("\n"), reasons: failures.map((failure) => failure.reason) };
}

/** A call that ended in an error: the dynamic provider host logs `${error}: ${error.stack}`, and the engine prints the message. */
function failedWith(error: unknown): CheckOutcome {
  const text = error instanceof Error ? `${String(error)}: ${error.stack ?? error.message}` : String(error);
  return { output: text, reasons: [] };
}

/**
 * The dynamic resources' provider as their provider process loads it: from the compiled package
 * (`pulumi-etl/runtime`), which loads the one kind it serves from that kind's folder.
 */
const { providerFor } = require("pulumi-etl/runtime") as typeof import("../../provider/runtime");

async function dynamicCheck(test: Case): Promise<CheckOutcome> {
  const news = overTheWire(withProvider(test.kind, test.inputs));
  try {
    const { failures } = await providerFor(test.kind).check({}, news);
    return asTheEngineShows("dynamic", test, failures ?? []);
  } catch (error) {
    return failedWith(error);
  }
}

// One plugin process serves a whole preview: one session for all the cases, as the engine's one plugin.
let pluginService: ReturnType<typeof providerService> | undefined;

function pluginCheckRequest(test: Case): providerProto.CheckRequest {
  const inputs = JSON.parse(JSON.stringify(test.inputs)) as Record<string, unknown>;
  if (test.secret !== undefined && inputs[test.secret] !== undefined)
    inputs[test.secret] = { [SPECIAL_SIGNATURE]: SECRET_SIGNATURE, value: inputs[test.secret] };
  const request = new providerProto.CheckRequest();
  request.setUrn(`urn:pulumi:bad-input::bad-input::etl:index:${test.kind}::subject`);
  request.setType(`etl:index:${test.kind}`);
  request.setOlds(Struct.fromJavaScript({}));
  request.setNews(Struct.fromJavaScript(inputs as never));
  return request;
}

async function pluginCheck(test: Case): Promise<CheckOutcome> {
  pluginService ??= providerService(processResources());
  const check = pluginService.check;
  const answer = await new Promise<{ error?: { details?: string }; response?: providerProto.CheckResponse }>((resolve) =>
    check({ request: pluginCheckRequest(test) } as never, (error, response) =>
      resolve({ error: (error as { details?: string } | null) ?? undefined, response: response ?? undefined }),
    ),
  );
  if (answer.error !== undefined) return failedWith(answer.error.details ?? String(answer.error));
  const failures = (answer.response?.getFailuresList() ?? []).map((failure) => ({ property: failure.getProperty(), reason: failure.getReason() }));
  return asTheEngineShows("plugin", test, failures);
}

/** The surface's check of a bad input, as the engine would show it. */
export function checkAsTheEngineShows(surface: Surface, test: Case): Promise<CheckOutcome> {
  return surface === "plugin" ? pluginCheck(test) : dynamicCheck(test);
}
