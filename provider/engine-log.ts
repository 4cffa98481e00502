/**
 * The engine's `Log` call, for a provider process: the plugin is started with the engine's
 * address as its first argument, and so is the dynamic-provider host.
 */
import * as grpc from "@grpc/grpc-js";
import * as engineRpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engineProto from "@pulumi/pulumi/proto/engine_pb";
import type { EngineLog, Severity } from "./progress";

const SEVERITIES: Record<Severity, engineProto.LogSeverity> = {
  info: engineProto.LogSeverity.INFO,
  warning: engineProto.LogSeverity.WARNING,
};

/** An engine address is `host:port`; anything else (a flag, nothing) means there is none to talk to. */
export function isEngineAddress(value: string | undefined): value is string {
  return value !== undefined && /^[\w.[\]:-]+:\d+$/.test(value);
}

export function engineLogAt(address: string): EngineLog {
  const client = new engineRpc.EngineClient(address, grpc.credentials.createInsecure());
  return {
    log(urn, severity, message, ephemeral) {
      const request = new engineProto.LogRequest();
      request.setUrn(urn);
      request.setSeverity(SEVERITIES[severity]);
      request.setMessage(message);
      request.setEphemeral(ephemeral);
      return new Promise((resolve, reject) => client.log(request, (error) => (error ? reject(error) : resolve())));
    },
  };
}
