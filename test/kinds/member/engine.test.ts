/**
 * Member through the real engine against the emulator: an invitation and an existing user
 * added, an unchanged preview and refresh, a role changed in place, a new email replacing the
 * member, a role changed out of band, a member removed out of band and added again, adoption by
 * email, the owner refused at preview and kept at destroy, and destroy removing memberships only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OutputMap } from "@pulumi/pulumi/automation";
import { Member, type MemberArgs } from "pulumi-etl";
import { createTestStack, failureOf, type TestStack } from "../../support/engine";
import { ACCEPT, startTestEmulator, type Emulator } from "../../support/service";

const LEE = { id: 71, name: "Lee Analyst", email: "lee@example.com", apiKey: "member-test-key-lee" };
const KIM = { id: 72, name: "Kim Engineer", email: "kim@example.com", apiKey: "member-test-key-kim" };
const OWNER_EMAIL = "test@example.com";

/** The headers of a request made with another user's key. */
const as = (apiKey: string) => ({ accept: ACCEPT, authorization: `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}` });

describe("Member on the real engine", { timeout: 300_000 }, () => {
  let service: Emulator;
  let test: TestStack;
  let outputs: OutputMap;
  const onOutput = () => undefined;
  let invited: MemberArgs;
  let colleague: MemberArgs | undefined;
  let adopted: MemberArgs | undefined;
  let owner: MemberArgs | undefined;

  const member = async (id: unknown) => {
    const { status, body } = await service.api("GET", `/members/${String(id)}`);
    return status === 200 ? body : undefined;
  };
  const memberEmails = async () => ((await service.api("GET", "/members?role=all")).body as Array<{ email: string }>).map((m) => m.email).sort();
  const up = async (refresh = false) => (outputs = (await test.stack.up({ onOutput, refresh })).outputs);

  beforeAll(async () => {
    invited = { email: "Sam.New@Example.com", name: "Sam New" };
    colleague = { email: KIM.email, role: "admin" };
    service = await startTestEmulator({
      users: [{ ...LEE }],
      otherAccounts: [{ id: 8, uid: "elsewhere", users: [{ ...KIM }] }],
    });
    test = await createTestStack(
      "member",
      async () => {
        const sam = new Member("sam", invited);
        const kim = colleague === undefined ? undefined : new Member("kim", colleague);
        const lee = adopted === undefined ? undefined : new Member("lee", adopted);
        if (owner !== undefined) new Member("owner", owner);
        return { id: sam.id, email: sam.email, role: sam.role, confirmed: sam.confirmed, kimId: kim?.id, kimRole: kim?.role, leeId: lee?.id };
      },
      service,
    );
  });

  afterAll(async () => {
    test?.dispose();
    await service?.emulator.close();
  });

  it("up invites a new address and adds a user of another account, one call each", async () => {
    await service.resetRequests();
    await up();
    expect((await service.writeRequests()).map((r) => r.method)).toEqual(["POST", "POST"]);
    expect(outputs).toMatchObject({ email: { value: "sam.new@example.com" }, role: { value: "member" }, confirmed: { value: false } });
    expect(await member(outputs.id!.value)).toMatchObject({ email: "sam.new@example.com", name: "Sam New", confirmed: false, role: "member" });
    expect(outputs.kimId!.value).toBe(String(KIM.id));
    expect(await member(KIM.id)).toMatchObject({ role: "admin", confirmed: true });
  });

  it("an unchanged preview calls nothing, and refresh reads the two members in at most two calls", async () => {
    await service.resetRequests();
    await test.stack.preview({ expectNoChanges: true, onOutput });
    expect(await service.calls()).toEqual([]);
    const refresh = await test.stack.refresh({ expectNoChanges: true, onOutput });
    expect(refresh.summary.resourceChanges).toEqual({ same: 3 });
    // The listing's first page answers both when they come together; a first read alone is its own GET.
    const calls = await service.calls();
    expect(calls.length).toBeLessThanOrEqual(2);
    expect(calls.every((call) => ["GET /members", `GET /members/${outputs.id!.value}`, `GET /members/${KIM.id}`].includes(call))).toBe(true);
  });

  it("a new role is one PUT; a new email replaces the member, removing the old membership only", async () => {
    colleague = { email: KIM.email, role: "member" };
    await service.resetRequests();
    await up();
    expect(await service.calls()).toEqual([`PUT /members/${KIM.id}`]);
    expect((await member(KIM.id)).role).toBe("member");
    const samId = outputs.id!.value;
    invited = { email: "sam.renamed@example.com", name: "Sam New" };
    await up();
    expect(outputs.id!.value).not.toBe(samId);
    expect(await member(samId)).toBeUndefined();
    expect(await memberEmails()).toEqual([KIM.email, LEE.email, "sam.renamed@example.com", OWNER_EMAIL].sort());
  });

  it("a role changed out of band is found by refresh and undone by up", async () => {
    await service.api("PUT", `/members/${KIM.id}`, { role: "admin" });
    const refresh = await test.stack.refresh({ onOutput });
    expect(refresh.summary.resourceChanges).toMatchObject({ update: 1 });
    await up();
    expect((await member(KIM.id)).role).toBe("member");
  });

  it("a member removed out of band loses the account's API, and the next up with refresh adds them again", async () => {
    await service.api("DELETE", `/members/${KIM.id}`);
    const asKim = await fetch(`${service.url}/${service.accountId}/api/clusters`, { headers: as(KIM.apiKey) });
    expect(asKim.status).toBe(401);
    await service.resetRequests();
    await up(true);
    expect(await service.calls()).toContain("POST /members");
    expect(await member(KIM.id)).toMatchObject({ email: KIM.email, role: "member" });
  });

  it("someone who is a member already is not taken over unasked: up fails naming the importId to set", async () => {
    adopted = { email: LEE.email, role: "admin" };
    await service.resetRequests();
    const failure = await failureOf(test.stack.up({ onOutput }));
    expect(failure).toContain(`lee@example.com is already a member of the account (member ${LEE.id})`);
    expect(failure).toContain('set importId: "lee@example.com" on this resource');
    expect((await service.writeRequests()).map((r) => r.status)).toEqual([422]);
    expect((await member(LEE.id)).role).toBe("member");
  });

  it("importId adopts a member by email, updates the role, and the next preview is empty", async () => {
    adopted = { email: LEE.email, role: "admin", importId: LEE.email };
    await service.resetRequests();
    await up();
    expect(outputs.leeId!.value).toBe(String(LEE.id));
    expect(await service.writeRequests()).toMatchObject([{ method: "PUT" }]);
    expect((await member(LEE.id)).role).toBe("admin");
    await test.stack.preview({ expectNoChanges: true, onOutput });
  });

  it("the owner's role cannot be asked for, and the owner is never removed", async () => {
    owner = { email: LEE.email, role: "owner" as MemberArgs["role"] & string };
    expect(await failureOf(test.stack.preview({ onOutput }))).toMatch(/role must be one of member, admin: ownership is handed over in the service/);
    owner = { email: OWNER_EMAIL, importId: OWNER_EMAIL };
    // Adopting the owner asks for nothing: the owner's role is left as it is.
    await service.resetRequests();
    await up();
    expect(await service.writeRequests()).toEqual([]);
    await service.resetRequests();
    const failure = await failureOf(test.stack.destroy({ onOutput }));
    expect(failure).toMatch(/is the account's owner, and the owner cannot be removed/);
    // The others go, one DELETE each; the owner's membership is never asked to.
    const deletes = (await service.calls()).filter((call) => call.startsWith("DELETE"));
    expect(deletes.sort()).toEqual([`DELETE /members/${outputs.id!.value}`, `DELETE /members/${KIM.id}`, `DELETE /members/${LEE.id}`].sort());
    expect(await member(70)).toMatchObject({ owner: true });
  });

  it("once the owner leaves the stack, destroy finishes: no membership of the stack left, the users kept", async () => {
    // What `pulumi state delete` does: the owner leaves the stack, the membership stays.
    const exported = await test.stack.exportStack();
    const deployment = exported.deployment as { resources: Array<{ type: string; outputs?: { owner?: boolean } }> };
    deployment.resources = deployment.resources.filter((r) => !(r.type.endsWith(":Member") && r.outputs?.owner === true));
    await test.stack.importStack(exported);
    await service.resetRequests();
    await test.stack.destroy({ onOutput });
    expect(await service.writeRequests()).toEqual([]);
    expect((await test.stack.exportStack()).deployment.resources ?? []).toEqual([]);
    expect(await memberEmails()).toEqual([OWNER_EMAIL]);
    const kimElsewhere = await fetch(`${service.url}/elsewhere/api/clusters`, { headers: as(KIM.apiKey) });
    expect(kimElsewhere.status).toBe(200);
  });
});
