/** The protobuf answers the plugin's resource calls and its settings calls share. */
import * as providerProto from "@pulumi/pulumi/proto/provider_pb";

export function checkFailures(failures: ReadonlyArray<{ property: string; reason: string }>): providerProto.CheckFailure[] {
  return failures.map(({ property, reason }) => {
    const failure = new providerProto.CheckFailure();
    failure.setProperty(property);
    failure.setReason(reason);
    return failure;
  });
}

const PROPERTY_DIFF_KINDS = {
  update: providerProto.PropertyDiff.Kind.UPDATE,
  replace: providerProto.PropertyDiff.Kind.UPDATE_REPLACE,
} as const;

/** A diff listing each changed input with what it does, so `preview --diff` shows it property by property. */
export function detailedDiff(
  changes: Record<string, "update" | "replace">,
  options: { changes: boolean; replaces?: string[]; deleteBeforeReplace?: boolean },
): providerProto.DiffResponse {
  const response = new providerProto.DiffResponse();
  response.setChanges(options.changes ? providerProto.DiffResponse.DiffChanges.DIFF_SOME : providerProto.DiffResponse.DiffChanges.DIFF_NONE);
  response.setReplacesList(options.replaces ?? []);
  response.setDeletebeforereplace(options.deleteBeforeReplace ?? false);
  response.setDiffsList(Object.keys(changes));
  response.setHasdetaileddiff(true);
  const detailed = response.getDetaileddiffMap();
  for (const [name, change] of Object.entries(changes)) {
    const property = new providerProto.PropertyDiff();
    property.setKind(PROPERTY_DIFF_KINDS[change]);
    property.setInputdiff(true);
    detailed.set(name, property);
  }
  return response;
}
