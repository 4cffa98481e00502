/**
 * Failures as the engine reads them from a plugin: one line for what the user can act on, and,
 * when the object exists but the operation failed after, the object's id and properties packed
 * as `ErrorResourceInitFailed`, so the engine keeps it in the stack (partial state).
 */
import * as grpc from "@grpc/grpc-js";
import { Any } from "google-protobuf/google/protobuf/any_pb";
import * as providerProto from "@pulumi/pulumi/proto/provider_pb";
import * as statusProto from "@pulumi/pulumi/proto/status_pb";
import { UserFacingError } from "../errors";
import { toStruct, type Values } from "./values";

/** What a handler answers with when its work throws. */
export interface Failure {
  code: grpc.status;
  details: string;
  metadata: grpc.Metadata;
}

interface KeptObject {
  id?: unknown;
  properties?: Values;
  reasons?: string[];
}

export function unimplemented(what: string): Failure {
  return { code: grpc.status.UNIMPLEMENTED, details: `${what} is not implemented by the etl provider`, metadata: new grpc.Metadata() };
}

export function failureOf(error: unknown): Failure {
  const metadata = new grpc.Metadata();
  if (!(error instanceof Error)) return { code: grpc.status.UNKNOWN, details: String(error), metadata };
  // Anything not meant for the user is a defect: its stack helps whoever reports it.
  const message = error instanceof UserFacingError ? error.message : `${error.message}\n${error.stack ?? ""}`;
  const kept = error as KeptObject & { secretNames?: Set<string> };
  if (typeof kept.id === "string" && kept.id !== "")
    metadata.add("grpc-status-details-bin", Buffer.from(keptObjectStatus(message, kept, kept.secretNames ?? [])));
  return { code: grpc.status.UNKNOWN, details: message, metadata };
}

function keptObjectStatus(message: string, kept: KeptObject, secrets: Iterable<string>): Uint8Array {
  const detail = new providerProto.ErrorResourceInitFailed();
  detail.setId(String(kept.id));
  detail.setProperties(toStruct(kept.properties ?? {}, secrets));
  detail.setReasonsList(kept.reasons ?? [message]);
  const packed = new Any();
  packed.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
  const status = new statusProto.Status();
  status.setCode(grpc.status.UNKNOWN);
  status.setMessage(message);
  status.addDetails(packed);
  return status.serializeBinary();
}

/** A call the plugin cannot serve as asked (an unknown type or function). */
export class ProviderError extends UserFacingError {
  constructor(message: string) {
    super(message);
    this.name = "ProviderError";
  }
}
