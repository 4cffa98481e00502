/**
 * Member: a person's membership of the account, with a role (facts, "Members"). Adding answers
 * 200 and invites an address no user has; the member's id is the user's. Removing ends the
 * membership only. The owner is never demoted nor removed from here: that would be a one-off act
 * that can lock people out, so it is left to the service.
 */
import type * as pulumi from "@pulumi/pulumi";
import { addMember, findMemberByEmail, getMember, removeMember, updateMember, type MemberRecord } from "../../api/members";
import { ValidationError } from "../../client/errors";
import type { RequestFn } from "../../client/http";
import type { OperationContext } from "../../context";
import { AdoptionError, adoptionChange, objectToAdopt } from "../shared/adopt";
import { ID_TEXT } from "../shared/check";
import { unlessGone } from "../shared/gone";
import { AlreadyInAccount, ResourceFailure } from "../shared/failures";
import type { ResourceImplementation } from "../shared/implementation";
import { standardOperations } from "../shared/operations";
import { createdLookup } from "../shared/created-lookup";
import { tableOperations, type MemberInputs, type MemberOutputs } from "./fields";
import { memberExport } from "./export";

const KIND = "member";

/** The owner's role is not the program's to change: it is compared as it is. */
function ownerKeepsRole(olds: MemberOutputs, news: MemberInputs): MemberInputs {
  return olds.owner ? { ...news, role: olds.role } : news;
}

async function update(ctx: OperationContext, id: string, olds: MemberOutputs, news: MemberInputs): Promise<MemberOutputs> {
  return tableOperations.updated(olds, ownerKeepsRole(olds, news), (body) => updateMember(ctx.request, id, body));
}

async function memberNamed(request: RequestFn, importId: string): Promise<MemberRecord> {
  if (ID_TEXT.test(importId)) return getMember(request, importId);
  const found = await findMemberByEmail(request, importId);
  if (found === undefined) throw new AdoptionError(KIND, importId, `no member with email ${importId} in this account`);
  return found;
}

async function adopt(ctx: OperationContext, importId: string, inputs: MemberInputs): Promise<MemberOutputs> {
  const record = await objectToAdopt(KIND, importId, () => memberNamed(ctx.request, importId));
  if (record.email.toLowerCase() !== inputs.email) {
    throw new AdoptionError(KIND, importId, `its email is ${record.email}, not ${inputs.email}, and a member's email cannot be changed`);
  }
  const found = tableOperations.outputs(record, inputs);
  return adoptionChange(KIND, importId, () => update(ctx, String(record.id), found, inputs));
}

/** Adding someone who is a member already: say who, and how to manage them instead. */
async function alreadyMember(error: unknown, request: RequestFn, email: string): Promise<never> {
  if (!(error instanceof ValidationError) || !/already/i.test(error.serviceMessage)) throw error;
  const existing = await findMemberByEmail(request, email).catch(() => undefined);
  const which = existing === undefined ? "" : ` (member ${existing.id})`;
  throw new AlreadyInAccount(
    `${email} is already a member of the account${which}`,
    `this stack's state does not have them. To manage that membership here, set importId: "${email}" on this resource, run \`pulumi up\`, then remove importId.`,
  );
}

/** The membership an add may have made: the email's, made since it was sent, with everything sent. */
export const addedMember = createdLookup<MemberRecord, MemberInputs>({
  candidates: async (request, inputs) => [await findMemberByEmail(request, inputs.email)].filter((found) => found !== undefined),
  madeBy: (found, inputs) => tableOperations.hasSentValues(found, inputs),
});

export const memberImplementation = {
  ...standardOperations(tableOperations, {
    kind: KIND,
    create: addMember,
    findCreated: addedMember.find,
    get: getMember,
    listed: memberExport,
    remove: ({ request }, id) => removeMember(request, id),
    update,
    adopt,
    // An email names the member to adopt; the resource's id is the user's.
    adoptedId: (outs) => String(outs.userId),
    refused: (error, { request }, inputs) => alreadyMember(error, request, inputs.email),
  }),

  async diff(_id: string, olds: MemberOutputs, news: MemberInputs): Promise<pulumi.dynamic.DiffResult> {
    // The account holds an email once: the old membership goes before its replacement comes.
    return tableOperations.diff(olds, ownerKeepsRole(olds, news), { deleteBeforeReplace: true });
  },

  /** Never the owner: nothing is sent, and the stack keeps the member until ownership moves. */
  async delete(ctx: OperationContext, id: string, props: MemberOutputs): Promise<void> {
    if (props.owner) {
      throw new ResourceFailure(
        `member ${id} (${props.email}) is the account's owner, and the owner cannot be removed. Hand ownership to another member ` +
          "in the service and run `pulumi refresh`, or keep the membership and drop it from the stack with `pulumi state delete`",
      );
    }
    await unlessGone(removeMember(ctx.request, id));
  },
} satisfies ResourceImplementation<MemberInputs, MemberOutputs>;
