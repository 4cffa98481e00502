/**
 * ConnectionGroup's fields. Everything updates in place (`PUT` replaces the assignments when
 * `connections` is sent). Omitted `description` and `connections` are managed as "none": drift
 * there is corrected too.
 */
import type { ConnectionResource } from "../shared/references";
import type * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import type { ConnectionAssignment, ConnectionGroupRecord } from "../../api/connection-groups";
import { canJoinGroups, GROUPABLE_CONNECTION_TYPES } from "../../../contract/limits";
import { MAX_NAME_LENGTH } from "../../../contract/text";
import { importIdField } from "../shared/adopt";
import { isUnknown, objectIdInput, unlessUnknown } from "../shared/check";
import { fieldOperations, objectRule, takes, output, OUTPUT, type ArgsOf, type Field, type InputsOf, type OutputsOf } from "../shared/fields";

/** Only database and cloud-storage connections join groups: any other type is refused at `up`. */
const groupableType = z
  .string()
  .min(1, { abort: true })
  .refine(canJoinGroups, `must be the type of a database or cloud-storage connection: ${GROUPABLE_CONNECTION_TYPES.join(", ")}`);

const assignmentFields = {
  /** The connection's id; a number or a numeric string (such as another resource's id). */
  id: { program: takes<pulumi.Input<number | string>>(), input: unlessUnknown(objectIdInput(301)), required: true },
  /** The connection's own type, e.g. `postgres` or `s3`. */
  type: { input: groupableType, required: true },
} as const;

/** A connection assigned to the group by its id and type. */
export type ConnectionAssignmentArgs = ArgsOf<typeof assignmentFields>;

const assignment = unlessUnknown(objectRule(assignmentFields));

/** Assignments are a set: sorted, equal sets compare equal. Left as given while an id is unknown. */
export function sortedById<T extends { id: number }>(list: T[]): T[] {
  if (list.some((item) => isUnknown(item) || isUnknown(item.id))) return list;
  return [...list].sort((a, b) => a.id - b.id);
}

const connectionList = z
  .array(assignment)
  .superRefine((list, ctx) => {
    const firstIndex = new Map<number, number>();
    list.forEach((item, index) => {
      if (isUnknown(item) || isUnknown(item.id)) return;
      const first = firstIndex.get(item.id);
      if (first === undefined) firstIndex.set(item.id, index);
      else ctx.addIssue({ code: "custom", path: [index, "id"], message: `must not repeat connection ${item.id}, already listed at connections.${first}` });
    });
  })
  .transform(sortedById);

const groupName = z
  .string()
  .min(1)
  .max(MAX_NAME_LENGTH)
  .refine((name) => name === "" || name.trim() !== "", "must not be blank");

const assignmentsOf = (connections: ReadonlyArray<{ id: number; type: string }>): ConnectionAssignment[] => connections.map(({ id, type }) => ({ id, type }));

const table = {
  /** The group's name, unique in the account; 1 to 255 characters. */
  name: { input: groupName, required: true, api: "connection_group.name", onChange: "update" },
  /** Left out, the group has no description (one set elsewhere is removed). */
  description: {
    input: z.string(),
    default: null,
    sendDefault: true,
    api: "connection_group.description",
    onChange: "update",
  },
  /**
   * The database and cloud-storage connections assigned to the group, in any order, each once:
   * `Connection` resources of the stack, or ids with types.
   * Left out, the group has no connections (ones assigned elsewhere are detached).
   */
  connections: {
    program: takes<pulumi.Input<pulumi.Input<ConnectionAssignmentArgs>[]> | Array<pulumi.Input<ConnectionAssignmentArgs> | ConnectionResource>>(),
    input: connectionList,
    default: [],
    sendDefault: true,
    api: "connections",
    onChange: "update",
    // As the service reports them, in id order; a diff compares what assigns them.
    read: (r): Array<{ id: number; name: string; type: string }> => sortedById(r.connections.map(({ id, name, type }) => ({ id, name, type }))),
    current: (outputs) => assignmentsOf((outputs.connections as ConnectionAssignment[] | undefined) ?? []),
    refersTo: { to: "connection", at: "*.id", checkedByService: true, inIdOrder: true },
  },
  /** The id of an existing group to manage instead of creating one. */
  importId: importIdField,
  accountId: output("The account the group belongs to."),
  modifiedBy: { description: "Who last changed the group: `{ name, email }`.", read: (r) => ({ name: r.modified_by.name, email: r.modified_by.email }) },
  createdAt: OUTPUT,
  updatedAt: OUTPUT,
} satisfies Record<string, Field<ConnectionGroupRecord>>;

/** What a program passes. */
export type ConnectionGroupArgs = ArgsOf<typeof table>;

export const tableOperations = fieldOperations<ConnectionGroupRecord, typeof table>(table);

export type ConnectionGroupInputs = InputsOf<typeof table>;
export type ConnectionGroupOutputs = OutputsOf<typeof table, ConnectionGroupRecord>;
