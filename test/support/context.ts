import { configuredBy, processResources, type OperationContext, type ProcessResources } from "../../provider/context";

/** The context a provider configured with these `etl:*` settings gives its operations. */
export function contextWith(settings: Record<string, string>, process: ProcessResources = processResources()): OperationContext {
  return configuredBy((key) => settings[key], process, true)();
}

/** A context for operations that must not reach the service: any request fails the test. */
export function noCallsContext(): OperationContext {
  const settings: Record<string, string> = { "etl:apiUrl": "http://127.0.0.1:9", "etl:accountId": "none", "etl:apiKey": "unused-key" };
  const context = contextWith(settings);
  const refuse = async (): Promise<never> => {
    throw new Error("no request was expected");
  };
  return { ...context, request: refuse };
}

/** For a diff that must not reach the service. */
export const noService = (): OperationContext => noCallsContext();
