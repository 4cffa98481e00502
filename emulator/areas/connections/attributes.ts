import { z } from "zod";
import { connectionAttributeProblems, connectionAttributes, type ConnectionAttribute, type ConnectionType } from "../../../contract/connection-types";
import { parseBody } from "../../body";
import { boolean, integerBetween, label } from "../../fields";
import type { Attributes, AttributeValue, ConnectionRow, SecretTraces } from "./model";
import { secretTrace } from "./settings-test";

/**
 * The bodies of create, update and the test of unsaved settings: `name` and the attributes of
 * the connection's type (`contract/connection-types`), read by one strict schema per type so an
 * unknown attribute is refused like any unknown field. The type's own rules (required,
 * enumerations, required unless or with another) come from the contract and are reported with
 * the problems of kinds, in one answer.
 */

type Given = Record<string, unknown>;

/** Every integer attribute is a TCP port. */
const PORT = { min: 1, max: 65_535 } as const;

function valueSchema(rule: ConnectionAttribute): z.ZodType<AttributeValue> {
  if (rule.kind === "integer") return integerBetween(PORT);
  if (rule.kind === "boolean") return boolean();
  return rule.required ? z.string().refine((text) => text.trim() !== "", "must not be blank") : z.string();
}

/** Null stands for "not given": the default on create, back to the default on update. */
function attributeSchema(rule: ConnectionAttribute) {
  return valueSchema(rule).nullish();
}

function hasValidKind(rule: ConnectionAttribute, value: unknown): boolean {
  return attributeSchema(rule).safeParse(value).success;
}

/**
 * `name` and the type's attributes, then the type's rules as `problemsOf` reads them; a rule on
 * an attribute whose value is already of the wrong kind is not repeated.
 */
function bodySchema(type: ConnectionType, name: z.ZodType, problemsOf: (given: Given) => ReturnType<typeof connectionAttributeProblems>) {
  const rules = connectionAttributes(type);
  const shape = Object.fromEntries(Object.entries(rules).map(([attribute, rule]) => [attribute, attributeSchema(rule)]));
  return z.strictObject({ name, ...shape }).superRefine(
    (body, ctx) => {
      const given = body as Given;
      for (const problem of problemsOf(given)) {
        const rule = rules[problem.attribute];
        if (rule !== undefined && !hasValidKind(rule, given[problem.attribute])) continue;
        ctx.addIssue({ code: "custom", path: [problem.attribute], message: problem.message });
      }
    },
    // Run even when a kind is wrong, so one answer names every problem.
    { when: () => true },
  );
}

export interface ConnectionSettings {
  name: string;
  attributes: Attributes;
  secrets: SecretTraces;
}

/** The attributes to store: defaults for those left out, secrets only as traces. */
export function settingsOf(type: ConnectionType, body: Given): Omit<ConnectionSettings, "name"> {
  const attributes: Attributes = {};
  const secrets: SecretTraces = {};
  for (const [name, rule] of Object.entries(connectionAttributes(type))) {
    const value = body[name] as AttributeValue | undefined;
    if (!rule.secret) attributes[name] = value ?? rule.default ?? null;
    else if (typeof value === "string") secrets[name] = secretTrace(value);
  }
  return { attributes, secrets };
}

/** A create's body (and an unsaved test's), or 422 naming every problem. */
export function readNewSettings(type: ConnectionType, raw: Given): ConnectionSettings {
  const body = parseBody(
    bodySchema(type, label(), (given) => connectionAttributeProblems(type, given)),
    raw,
  ) as Given;
  return { name: body.name as string, ...settingsOf(type, body) };
}

/** What the connection holds, as a body would give it; a kept secret is present but unreadable. */
function storedView(connection: ConnectionRow): Given {
  const view: Given = { ...connection.attributes };
  for (const name of Object.keys(connection.secrets)) view[name] = "(kept)";
  return view;
}

function withChanges(type: ConnectionType, stored: Given, given: Given): Given {
  const merged = { ...stored };
  for (const [name, rule] of Object.entries(connectionAttributes(type))) {
    if (given[name] !== undefined) merged[name] = given[name] ?? rule.default ?? null;
  }
  return merged;
}

const problemKey = (problem: { attribute: string; message: string }) => `${problem.attribute} ${problem.message}`;

/**
 * An update's body: the attributes given replace the stored ones, null puts one back to its
 * default, and secrets left out are kept, since a client can never read them back. The type's
 * rules are checked on the result, and only the problems the update would bring in are refused:
 * a fixture connection seeded without its required attributes can still be renamed.
 */
export function readChangedSettings(type: ConnectionType, connection: ConnectionRow, raw: Given): ConnectionSettings {
  const stored = storedView(connection);
  const before = new Set(connectionAttributeProblems(type, stored).map(problemKey));
  const newProblems = (given: Given) =>
    connectionAttributeProblems(type, withChanges(type, stored, given)).filter((problem) => !before.has(problemKey(problem)));
  const body = parseBody(bodySchema(type, label().optional(), newProblems), raw) as Given;
  const attributes: Attributes = { ...connection.attributes };
  const secrets: SecretTraces = { ...connection.secrets };
  for (const [name, rule] of Object.entries(connectionAttributes(type))) {
    const value = body[name] as AttributeValue | undefined;
    if (value === undefined) continue;
    if (!rule.secret) attributes[name] = value ?? rule.default ?? null;
    else if (typeof value === "string") secrets[name] = secretTrace(value);
    else delete secrets[name];
  }
  return { name: (body.name as string | undefined) ?? connection.name, attributes, secrets };
}
