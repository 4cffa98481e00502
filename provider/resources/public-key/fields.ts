/**
 * PublicKey's fields. The API has no update for keys, so any change of the key or its name
 * replaces it; an omitted name is the key's comment.
 */
import { z } from "zod";
import { publicKeyRecord } from "../../api/public-keys";
import { parseSshPublicKey } from "../../../contract/ssh-public-key";
import { importIdField } from "../shared/adopt";
import { isUnknown, labelText } from "../shared/check";
import { fieldOperations, output, OUTPUT, type ArgsOf, type Field, type InputsOf, type OutputsOf } from "../shared/fields";

/**
 * What the resource knows of a key: the service's record, and the user it belongs to, which the
 * record does not say (the user the API key named when the key was made or read).
 */
export const publicKeyState = publicKeyRecord.extend({ user_id: z.number().int().optional() });
export type PublicKeyState = z.output<typeof publicKeyState>;

/** The key as the service reads it: normalized to single spaces with no surrounding whitespace. */
const keyLine = z.string().transform((text, ctx) => {
  const parsed = parseSshPublicKey(text);
  if (parsed.ok) return parsed.key.normalized;
  ctx.addIssue({ code: "custom", message: parsed.rule });
  return z.NEVER;
});

export function commentOf(publicKey: unknown): string {
  if (typeof publicKey !== "string" || isUnknown(publicKey)) return "";
  const parsed = parseSshPublicKey(publicKey);
  return parsed.ok ? parsed.key.comment : "";
}

export function fingerprintOf(publicKey: unknown): string | undefined {
  // Unknown in a preview, or never read back (a key imported by id alone).
  if (typeof publicKey !== "string" || isUnknown(publicKey)) return undefined;
  const parsed = parseSshPublicKey(publicKey);
  return parsed.ok ? parsed.key.fingerprint : undefined;
}

/** A key as the service knows it: its fingerprint and its comment. */
function keyIdentity(fingerprint: unknown, comment: unknown): string {
  return `${fingerprint} ${comment ?? ""}`;
}

const table = {
  // The record has no key line, only its fingerprint and comment: the output is the line as
  // given, and a diff compares what the service holds of it, so a key imported by id alone
  // compares equal to the program's line for it.
  /** An OpenSSH public key line, such as the contents of `~/.ssh/id_ed25519.pub`. */
  publicKey: {
    input: keyLine,
    required: true,
    api: "public_key",
    writeOnly: true,
    onChange: "replace",
    compared: (line: string) => keyIdentity(fingerprintOf(line), commentOf(line)),
    current: (outputs) =>
      outputs.fingerprint === undefined
        ? keyIdentity(fingerprintOf(outputs.publicKey), commentOf(outputs.publicKey))
        : keyIdentity(outputs.fingerprint, outputs.comment),
  },
  /** The key's name in the service; defaults to the key's comment. */
  name: { input: labelText(), defaultFrom: (values) => commentOf(values.publicKey), api: "name", onChange: "replace" },
  /** The id of an existing key to manage instead of creating one; its key and name must match. */
  importId: importIdField,
  fingerprint: output("The key's MD5 fingerprint, as `ssh-keygen -l -E md5` prints it."),
  comment: output("The key line's comment, when it has one."),
  createdAt: OUTPUT,
  userId: {
    description:
      "The id of the user whose key this is: the user the API key belonged to when the key was made. Only that user's API key can read or delete it.",
    read: (r: PublicKeyState) => r.user_id,
  },
} satisfies Record<string, Field<PublicKeyState>>;

/** What a program passes. */
export type PublicKeyArgs = ArgsOf<typeof table>;

export const tableOperations = fieldOperations<PublicKeyState, typeof table>(table, {
  refine(inputs, ctx) {
    if (inputs.name === undefined && !isUnknown(inputs.publicKey) && commentOf(inputs.publicKey) === "") {
      ctx.addIssue({ code: "custom", path: ["name"], message: "is required when publicKey has no comment" });
    }
  },
});

export type PublicKeyInputs = InputsOf<typeof table>;
export type PublicKeyOutputs = OutputsOf<typeof table, PublicKeyState>;
