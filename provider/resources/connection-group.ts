/**
 * ConnectionGroup: a named set of an account's database and cloud-storage connections (spec 2.7).
 *
 * Everything updates in place (`PUT` replaces the assignments when `connections` is sent), so no
 * input change replaces the group. A replacement can still be forced (`pulumi up --replace`);
 * names are unique per account, so the class deletes the old group first unless told otherwise.
 * Omitted `description` and `connections` are managed as "none": drift there is corrected too.
 * A create whose outcome is unknown looks for the group by its exact name before sending again,
 * and brings a group it finds to the inputs (see reconcile.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import {
  createConnectionGroup,
  deleteConnectionGroup,
  connectionGroupRecord,
  getConnectionGroup,
  searchConnectionGroupsRequest,
  updateConnectionGroup,
  type ConnectionAssignment,
  type ConnectionGroupRecord,
  type UpdateConnectionGroupBody,
} from "../api/connection-groups";
import { MAX_NAME_LENGTH } from "../../contract/text";
import { EtlApiError, NotFoundError } from "../client/errors";
import type { RequestFn } from "../client/http";
import { collectAllPages } from "../client/pagination";
import { apiRequest } from "../context";
import { resourceType, withProvider } from "../dynamic";
import type { ResourceImplementation } from "./implementation";
import { AdoptionError, importIdInput, orInTheWay } from "./adopt";
import { checkWithSchema, isUnknown, objectIdInput, unlessUnknown } from "./check";
import { changedFields, diffByRules, sameValue, type FieldRules } from "./diff";
import { ResourceFailure } from "./failures";
import { createdInWindow, finishingOnCancel } from "./reconcile";
import { reconciler } from "./reconciler";

export interface ConnectionAssignmentArgs {
  /** The connection's id; a number or a numeric string (such as another resource's id). */
  id: pulumi.Input<number | string>;
  /** The connection's own type, e.g. `postgres` or `s3`. */
  type: pulumi.Input<string>;
}

export interface ConnectionGroupArgs {
  /** The group's name, unique in the account; 1 to 255 characters. */
  name: pulumi.Input<string>;
  /** Left out, the group has no description (one set elsewhere is removed). */
  description?: pulumi.Input<string>;
  /**
   * The database and cloud-storage connections assigned to the group, in any order, each once.
   * Left out, the group has no connections (ones assigned elsewhere are detached).
   */
  connections?: pulumi.Input<pulumi.Input<ConnectionAssignmentArgs>[]>;
  /** The id of an existing group to manage instead of creating one. */
  importId?: pulumi.Input<string | number>;
}

/** Inputs after `check`: connection ids as numbers, sorted by id. */
export interface ConnectionGroupInputs {
  name: string;
  description?: string;
  connections?: ConnectionAssignment[];
  importId?: string;
}

export interface ConnectionGroupOutputs {
  name: string;
  description: string | null;
  accountId: number;
  modifiedBy: { name: string; email: string };
  /** As the service reports them, in id order. */
  connections: Array<{ id: number; name: string; type: string }>;
  createdAt: string;
  updatedAt: string;
  importId?: string;
}

const KIND = "connection group";
const connectionIdSchema = unlessUnknown(objectIdInput(301));

const assignmentSchema = unlessUnknown(z.strictObject({ id: connectionIdSchema, type: z.string().min(1) }));

const connectionsSchema = unlessUnknown(
  z
    .array(assignmentSchema)
    .superRefine((list, ctx) => {
      const firstIndex = new Map<number, number>();
      list.forEach((item, index) => {
        if (isUnknown(item) || isUnknown(item.id)) return;
        const first = firstIndex.get(item.id);
        if (first === undefined) firstIndex.set(item.id, index);
        else ctx.addIssue({ code: "custom", path: [index, "id"], message: `must not repeat connection ${item.id}, already listed at connections.${first}` });
      });
    })
    .transform(sortedById),
);

/** Assignments are a set: sorted, equal sets compare equal. Left as given while an id is unknown. */
function sortedById(list: ConnectionAssignment[]): ConnectionAssignment[] {
  if (list.some((item) => isUnknown(item) || isUnknown(item.id))) return list;
  return [...list].sort((a, b) => a.id - b.id);
}

const inputSchema = z.strictObject({
  name: z
    .string()
    .min(1)
    .max(MAX_NAME_LENGTH)
    .refine((name) => name === "" || name.trim() !== "", "must not be blank"),
  description: z.string().optional(),
  connections: connectionsSchema.optional(),
  importId: importIdInput,
});

const assignmentsOf = (connections: ReadonlyArray<{ id: number; type: string }>): ConnectionAssignment[] =>
  connections.map(({ id, type }) => ({ id, type }));

/** Omitted description and connections mean none; `importId` only matters to `create`. */
const RULES: FieldRules<ConnectionGroupOutputs, ConnectionGroupInputs> = {
  name: { desired: (news) => news.name, current: (olds) => olds.name, onChange: "update" },
  description: { desired: (news) => news.description ?? null, current: (olds) => olds.description ?? null, onChange: "update" },
  connections: {
    desired: (news) => news.connections ?? [],
    current: (olds) => assignmentsOf(olds.connections ?? []),
    onChange: "update",
  },
};

function outputsOf(record: ConnectionGroupRecord, inputs: { importId?: string }): ConnectionGroupOutputs {
  return {
    name: record.name,
    description: record.description,
    accountId: record.account_id,
    modifiedBy: { name: record.modified_by.name, email: record.modified_by.email },
    connections: [...record.connections].sort((a, b) => a.id - b.id).map(({ id, name, type }) => ({ id, name, type })),
    createdAt: record.created_at,
    updatedAt: record.updated_at,
    ...(inputs.importId === undefined ? {} : { importId: inputs.importId }),
  };
}

/** The inputs that would produce the group as it now is, so a refresh leaves no phantom diff. */
function inputsOf(outputs: ConnectionGroupOutputs): ConnectionGroupInputs {
  return {
    name: outputs.name,
    ...(outputs.description === null ? {} : { description: outputs.description }),
    ...(outputs.connections.length === 0 ? {} : { connections: assignmentsOf(outputs.connections) }),
    ...(outputs.importId === undefined ? {} : { importId: outputs.importId }),
  };
}

function withoutImportId({ importId: _, ...outputs }: ConnectionGroupOutputs): ConnectionGroupOutputs {
  return outputs;
}

/** A PUT body carrying only what differs, so unchanged assignments are not rewritten. */
function updateBody(olds: ConnectionGroupOutputs, news: ConnectionGroupInputs): UpdateConnectionGroupBody | undefined {
  const changed = new Set(changedFields(RULES, olds, news));
  if (changed.size === 0) return undefined;
  const fields = {
    ...(changed.has("name") ? { name: news.name } : {}),
    ...(changed.has("description") ? { description: news.description ?? null } : {}),
  };
  return {
    ...(Object.keys(fields).length > 0 ? { connection_group: fields } : {}),
    ...(changed.has("connections") ? { connections: news.connections ?? [] } : {}),
  };
}

async function update(id: number, olds: ConnectionGroupOutputs, news: ConnectionGroupInputs): Promise<ConnectionGroupOutputs> {
  const body = updateBody(olds, news);
  if (body === undefined) return { ...withoutImportId(olds), ...(news.importId === undefined ? {} : { importId: news.importId }) };
  return outputsOf(await updateConnectionGroup(apiRequest(), id, body), news);
}

async function adopt(inputs: ConnectionGroupInputs & { importId: string }): Promise<ConnectionGroupOutputs> {
  const id = Number(inputs.importId);
  let record: ConnectionGroupRecord;
  try {
    record = await getConnectionGroup(apiRequest(), id);
  } catch (error) {
    if (error instanceof NotFoundError) throw new AdoptionError(KIND, inputs.importId, `no ${KIND} ${inputs.importId} in this account`);
    throw error;
  }
  try {
    return await update(id, outputsOf(record, inputs), inputs);
  } catch (error) {
    // Nothing changed, so nothing is kept: the next `up` tries the adoption afresh.
    if (error instanceof EtlApiError) throw new AdoptionError(KIND, inputs.importId, error.message);
    throw error;
  }
}

/**
 * The group a create sent at `sentAt` may have made: made since then, with every field the
 * request sent (name, description and connections). Names are unique in the account, so an
 * older group of that name means the create could not have succeeded; a group of that name with
 * another description or other connections is someone else's (another stack's), never taken.
 */
export function isGroupCreatedBy(group: ConnectionGroupRecord, inputs: ConnectionGroupInputs, sentAt: number): boolean {
  return (
    group.name === inputs.name &&
    group.description === (inputs.description ?? null) &&
    sameValue(sortedById(assignmentsOf(group.connections)), inputs.connections ?? []) &&
    createdInWindow(group.created_at, sentAt)
  );
}

async function groupsNamed(request: RequestFn, name: string): Promise<ConnectionGroupRecord[]> {
  const found = await collectAllPages(request, searchConnectionGroupsRequest(name), connectionGroupRecord, { what: "connection groups" });
  return found.filter((group) => group.name === name);
}

export async function findCreatedGroup(request: RequestFn, inputs: ConnectionGroupInputs, sentAt: number): Promise<ConnectionGroupRecord[]> {
  return (await groupsNamed(request, inputs.name)).filter((group) => isGroupCreatedBy(group, inputs, sentAt));
}

/**
 * A group found after an unknown outcome is brought to the inputs the way an adoption is. It is
 * this stack's from now on, so a failure keeps it in state and the next `up` updates it.
 */
async function settleFound(record: ConnectionGroupRecord, inputs: ConnectionGroupInputs): Promise<ConnectionGroupOutputs> {
  const found = outputsOf(record, inputs);
  try {
    return await update(record.id, found, inputs);
  } catch (error) {
    if (error instanceof EtlApiError) throw new ResourceFailure(`${KIND} ${record.id}: ${error.message}`, String(record.id), found);
    throw error;
  }
}

export const connectionGroupProvider = {
  async check(_olds: Record<string, unknown>, news: Record<string, unknown>) {
    return checkWithSchema(inputSchema, news);
  },

  async diff(_id: string, olds: ConnectionGroupOutputs, news: ConnectionGroupInputs): Promise<pulumi.dynamic.DiffResult> {
    return diffByRules(RULES, olds, news, { deleteBeforeReplace: true });
  },

  async create(inputs: ConnectionGroupInputs): Promise<pulumi.dynamic.CreateResult<ConnectionGroupOutputs>> {
    if (inputs.importId !== undefined) {
      return { id: inputs.importId, outs: await adopt({ ...inputs, importId: inputs.importId }) };
    }
    const request = apiRequest();
    const { record, adopted } = await reconciler().createOnce({
      kind: KIND,
      send: () =>
        createConnectionGroup(request, {
          connection_group: { name: inputs.name, description: inputs.description ?? null },
          connections: inputs.connections ?? [],
        }),
      find: (sentAt) => findCreatedGroup(finishingOnCancel(request), inputs, sentAt),
      idOf: (group) => group.id,
    }).catch((error: unknown) =>
      orInTheWay(error, {
        kind: KIND,
        which: `named ${JSON.stringify(inputs.name)}`,
        holders: () => groupsNamed(request, inputs.name),
        otherwise: "choose another name",
      }),
    );
    if (!adopted) return { id: String(record.id), outs: outputsOf(record, inputs) };
    return { id: String(record.id), outs: await settleFound(record, inputs) };
  },

  // The SDK types `inputs` as the outputs' type; they are the inputs' shape.
  async read(id: string, props: ConnectionGroupOutputs): Promise<pulumi.dynamic.ReadResult> {
    try {
      const outputs = outputsOf(await getConnectionGroup(apiRequest(), Number(id)), props);
      return { id, props: outputs, inputs: inputsOf(outputs) };
    } catch (error) {
      if (error instanceof NotFoundError) return {};
      throw error;
    }
  },

  async update(id: string, olds: ConnectionGroupOutputs, news: ConnectionGroupInputs): Promise<pulumi.dynamic.UpdateResult<ConnectionGroupOutputs>> {
    return { outs: await update(Number(id), olds, news) };
  },

  async delete(id: string): Promise<void> {
    try {
      await deleteConnectionGroup(apiRequest(), Number(id));
    } catch (error) {
      // Already gone is what delete wants.
      if (!(error instanceof NotFoundError)) throw error;
    }
  },
} satisfies ResourceImplementation<ConnectionGroupInputs, ConnectionGroupOutputs>;

export class ConnectionGroup extends pulumi.CustomResource {
  declare readonly name: pulumi.Output<string>;
  declare readonly description: pulumi.Output<string | null>;
  declare readonly accountId: pulumi.Output<number>;
  declare readonly modifiedBy: pulumi.Output<{ name: string; email: string }>;
  declare readonly connections: pulumi.Output<Array<{ id: number; name: string; type: string }>>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string>;
  declare readonly importId: pulumi.Output<string | undefined>;

  /**
   * `deleteBeforeReplace` defaults to true: a forced replacement keeps the name, which the
   * account allows only once. Options given here win.
   */
  constructor(name: string, args: ConnectionGroupArgs, opts?: pulumi.CustomResourceOptions) {
    // Every output is named in the props (as undefined) so the engine exposes it on the class.
    const outputs = {
      description: undefined,
      accountId: undefined,
      modifiedBy: undefined,
      connections: undefined,
      createdAt: undefined,
      updatedAt: undefined,
      importId: undefined,
    };
    const options = { ...opts, deleteBeforeReplace: opts?.deleteBeforeReplace ?? true };
    super(resourceType("ConnectionGroup"), name, withProvider("ConnectionGroup", { ...outputs, ...args }), options);
  }
}
