import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../emulator";
import { ACCOUNT, call, ecdsaP256Key, ed25519Key, LEE_KEY, rawKeyLine, rsaKey, startTestEmulator, readJson } from "../helpers";

let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await startTestEmulator();
});

afterAll(async () => {
  await emulator.close();
});

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

async function createKey(body: unknown, key?: string): Promise<Response> {
  return call(emulator, "/user/keys", { method: "POST", body, key });
}

async function deleteAllKeys(key?: string): Promise<void> {
  const keys = (await readJson(await call(emulator, "/user/keys?limit=100", { key }))) as { id: number }[];
  for (const { id } of keys) await call(emulator, `/user/keys/${id}`, { method: "DELETE", key });
}

beforeEach(async () => {
  await deleteAllKeys();
  await deleteAllKeys(LEE_KEY);
});

describe("POST /user/keys", () => {
  it("creates an ed25519 key: 201 with the record and its MD5 fingerprint", async () => {
    const key = ed25519Key("dana@laptop");
    const response = await createKey({ name: "Laptop", public_key: key.line });
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toBe("application/vnd.service+json; version=2");
    const body = await readJson(response);
    expect(body).toEqual({
      id: expect.any(Number),
      name: "Laptop",
      fingerprint: key.fingerprint,
      comment: "dana@laptop",
      created_at: expect.stringMatching(ISO_TIME),
      updated_at: expect.stringMatching(ISO_TIME),
      url: `${emulator.url}/${ACCOUNT}/api/user/keys/${body.id}`,
    });
    expect(body.fingerprint).toMatch(/^([0-9a-f]{2}:){15}[0-9a-f]{2}$/);
  });

  it("creates an RSA key", async () => {
    const key = rsaKey("ops@bastion");
    const response = await createKey({ public_key: key.line });
    expect(response.status).toBe(201);
    expect(await readJson(response)).toMatchObject({ fingerprint: key.fingerprint, comment: "ops@bastion" });
  });

  it("creates an ECDSA key", async () => {
    const key = ecdsaP256Key("ci runner");
    const response = await createKey({ public_key: key.line });
    expect(response.status).toBe(201);
    expect(await readJson(response)).toMatchObject({ fingerprint: key.fingerprint, name: "ci runner", comment: "ci runner" });
  });

  it("defaults the name to the key's comment", async () => {
    const response = await createKey({ public_key: ed25519Key("dana@workstation").line });
    expect(await readJson(response)).toMatchObject({ name: "dana@workstation", comment: "dana@workstation" });
  });

  it("accepts surrounding whitespace and a trailing newline as pasted from a .pub file", async () => {
    const key = ed25519Key("pasted");
    const response = await createKey({ public_key: `  ${key.line}\n` });
    expect(response.status).toBe(201);
    expect(await readJson(response)).toMatchObject({ fingerprint: key.fingerprint, comment: "pasted" });
  });

  it("requires a name when the key has no comment", async () => {
    const response = await createKey({ public_key: ed25519Key().line });
    expect(response.status).toBe(422);
    expect(await readJson(response)).toEqual({ message: "name is required when public_key has no comment" });
    const named = await createKey({ name: "no comment", public_key: ed25519Key().line });
    expect(await readJson(named)).toMatchObject({ name: "no comment", comment: "" });
  });

  it.each([
    ["missing", {}, /^public_key is required/],
    ["empty", { public_key: "" }, /^public_key is required/],
    ["blank", { public_key: "   " }, /^public_key is required/],
    ["not a string", { public_key: 42 }, /^public_key must be a string/],
    ["without a key type", { public_key: "AAAAC3NzaC1lZDI1NTE5AAAAIA== me" }, /^public_key must start with a key type such as ssh-ed25519/],
    ["of an unknown type", { public_key: "ssh-foo AAAA me" }, /^public_key must start with a key type/],
    ["without key data", { public_key: "ssh-ed25519" }, /^public_key must have base64 key data/],
    ["not base64", { public_key: "ssh-ed25519 AAAA!!!! me" }, /^public_key is not valid base64$/],
    ["badly padded base64", { public_key: "ssh-ed25519 AAAAC me" }, /^public_key is not valid base64$/],
    ["on several lines", { public_key: "ssh-ed25519 AAAA\nssh-ed25519 AAAA" }, /^public_key must be a single line$/],
  ])("answers 422 naming public_key when it is %s", async (_case, body, message) => {
    const response = await createKey(body);
    expect(response.status).toBe(422);
    expect((await readJson(response)).message).toMatch(message);
  });

  it("answers 422 when the blob's type differs from the declared type", async () => {
    const ed = ed25519Key("me");
    const response = await createKey({ public_key: `ssh-rsa ${ed.base64} me` });
    expect(response.status).toBe(422);
    expect(await readJson(response)).toEqual({ message: "public_key must hold a ssh-rsa key: the base64 part does not match its declared type" });
  });

  it("answers 422 for keys OpenSSH refuses: RSA under 1024 bits, DSA", async () => {
    const small = await createKey({ public_key: rsaKey("small", 512).line });
    expect(small.status).toBe(422);
    expect(await readJson(small)).toEqual({
      message: "public_key must hold a well-formed ssh-rsa key: the modulus must be at least 1024 bits, this one is 512",
    });
    const dsa = await createKey({ public_key: rawKeyLine("ssh-dss", ["ssh-dss", "p", "q", "g", "y"], "old") });
    expect(dsa.status).toBe(422);
    expect((await readJson(dsa)).message).toMatch(/^public_key must not be a DSA \(ssh-dss\) key/);
  });

  it("answers 422 for a truncated blob", async () => {
    const ed = ed25519Key("me");
    const truncated = Buffer.from(ed.base64, "base64").subarray(0, 30).toString("base64");
    const response = await createKey({ public_key: `ssh-ed25519 ${truncated} me` });
    expect(response.status).toBe(422);
    expect((await readJson(response)).message).toMatch(/^public_key must hold a (whole )?ssh-ed25519 key/);
  });

  it("answers 422 for an ed25519 blob with a key of the wrong size", async () => {
    const response = await createKey({ public_key: rawKeyLine("ssh-ed25519", ["ssh-ed25519", Buffer.alloc(31, 7)], "me") });
    expect(response.status).toBe(422);
    expect((await readJson(response)).message).toMatch(/^public_key must hold a well-formed ssh-ed25519 key/);
  });

  it.each([
    ["not a string", { name: 5, public_key: "x" }, /name must be a string/],
    ["blank", { name: "  ", public_key: ed25519Key("c").line }, /^name must not be blank$/],
    ["too long", { name: "n".repeat(256), public_key: ed25519Key("c").line }, /^name must be at most 255 characters$/],
  ])("answers 422 when name is %s", async (_case, body, message) => {
    const response = await createKey(body);
    expect(response.status).toBe(422);
    expect((await readJson(response)).message).toMatch(message);
  });

  it("accepts a name of exactly 255 characters", async () => {
    const response = await createKey({ name: "n".repeat(255), public_key: ed25519Key().line });
    expect(response.status).toBe(201);
  });

  it("counts characters, not UTF-16 units, in a name given or taken from the comment, as preview does", async () => {
    expect((await createKey({ name: "😀".repeat(255), public_key: ed25519Key().line })).status).toBe(201);
    expect((await createKey({ public_key: ed25519Key("😀".repeat(200)).line })).status).toBe(201);
    const tooLong = await createKey({ public_key: ed25519Key("😀".repeat(256)).line });
    expect(tooLong.status).toBe(422);
    expect((await readJson(tooLong)).message).toBe("name (taken from the key's comment) must be at most 255 characters");
  });

  it("answers 422 when the same key is registered twice by the same user", async () => {
    const key = ed25519Key("twice");
    expect((await createKey({ public_key: key.line })).status).toBe(201);
    const again = await createKey({ name: "another name", public_key: key.line.replace("twice", "other comment") });
    expect(again.status).toBe(422);
    expect(await readJson(again)).toEqual({ message: "public_key has already been taken" });
  });

  it("lets another user of the account register the same key", async () => {
    const key = ed25519Key("shared");
    expect((await createKey({ public_key: key.line })).status).toBe(201);
    expect((await createKey({ public_key: key.line }, LEE_KEY)).status).toBe(201);
  });

  it("answers 400 when the body is not a JSON object", async () => {
    const response = await createKey([ed25519Key("x").line]);
    expect(response.status).toBe(400);
    expect(await readJson(response)).toEqual({ message: "Request body must be a JSON object." });
  });

  it("ignores fields it does not know", async () => {
    const response = await createKey({ public_key: ed25519Key("x").line, colour: "blue" });
    expect(response.status).toBe(201);
  });
});

describe("GET /user/keys/{key_id}", () => {
  it("returns the key", async () => {
    const created = await readJson(await createKey({ public_key: ed25519Key("get me").line }));
    const response = await call(emulator, `/user/keys/${created.id}`);
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual(created);
  });

  it.each(["999999", "abc", "0", "-1", "1.5", "1e3"])("answers 404 Item not found. for id %s", async (id) => {
    const response = await call(emulator, `/user/keys/${id}`);
    expect(response.status).toBe(404);
    expect(await readJson(response)).toEqual({ message: "Item not found." });
  });

  it("hides keys of other users of the same account", async () => {
    const created = await readJson(await createKey({ public_key: ed25519Key("dana only").line }));
    const response = await call(emulator, `/user/keys/${created.id}`, { key: LEE_KEY });
    expect(response.status).toBe(404);
    const deletion = await call(emulator, `/user/keys/${created.id}`, { method: "DELETE", key: LEE_KEY });
    expect(deletion.status).toBe(404);
    expect((await call(emulator, `/user/keys/${created.id}`)).status).toBe(200);
  });
});

describe("GET /user/keys", () => {
  it("lists the caller's keys by id", async () => {
    const first = await readJson(await createKey({ public_key: ed25519Key("b-first").line }));
    const second = await readJson(await createKey({ public_key: rsaKey("a-second").line }));
    await createKey({ public_key: ed25519Key("lee's").line }, LEE_KEY);
    const response = await call(emulator, "/user/keys");
    expect(response.status).toBe(200);
    expect(await readJson(response)).toEqual([first, second]);
    expect(response.headers.get("link")).toBeNull();
  });

  it("returns an empty array when there are no keys", async () => {
    const response = await call(emulator, "/user/keys");
    expect(await readJson(response)).toEqual([]);
  });

  it("sorts by name and direction", async () => {
    for (const name of ["beta", "alpha", "gamma"]) await createKey({ name, public_key: ed25519Key().line });
    const names = async (query: string): Promise<string[]> =>
      ((await readJson(await call(emulator, `/user/keys?${query}`))) as { name: string }[]).map((k) => k.name);
    expect(await names("sort=name")).toEqual(["alpha", "beta", "gamma"]);
    expect(await names("sort=name&direction=desc")).toEqual(["gamma", "beta", "alpha"]);
    expect(await names("direction=desc")).toEqual(["gamma", "alpha", "beta"]);
    expect(await names("sort=created")).toEqual(["beta", "alpha", "gamma"]);
    expect(await names("sort=updated&direction=desc")).toEqual(["gamma", "alpha", "beta"]);
  });

  it("answers 400 for unknown sort or direction values", async () => {
    const sort = await call(emulator, "/user/keys?sort=size");
    expect(sort.status).toBe(400);
    expect(await readJson(sort)).toEqual({ message: "sort must be one of created, updated, name" });
    const direction = await call(emulator, "/user/keys?direction=up");
    expect(direction.status).toBe(400);
    expect(await readJson(direction)).toEqual({ message: "direction must be asc or desc" });
  });
});

describe("GET /user/keys/search", () => {
  it("finds keys by name or id", async () => {
    const laptop = await readJson(await createKey({ name: "Work Laptop", public_key: ed25519Key().line }));
    const desktop = await readJson(await createKey({ name: "Home desktop", public_key: ed25519Key().line }));
    const byName = await call(emulator, "/user/keys/search?q=laptop");
    expect(byName.status).toBe(200);
    expect(await readJson(byName)).toEqual([laptop]);
    const byId = await call(emulator, `/user/keys/search?q=${desktop.id}`);
    expect(await readJson(byId)).toEqual([desktop]);
  });

  it("answers 400 without q", async () => {
    const response = await call(emulator, "/user/keys/search");
    expect(response.status).toBe(400);
    expect(await readJson(response)).toEqual({ message: "q is required" });
  });
});

describe("DELETE /user/keys/{key_id}", () => {
  it("answers 200 with the deleted key, after which it is gone", async () => {
    const created = await readJson(await createKey({ public_key: ed25519Key("delete me").line }));
    const deletion = await call(emulator, `/user/keys/${created.id}`, { method: "DELETE" });
    expect(deletion.status).toBe(200);
    expect(await readJson(deletion)).toEqual(created);
    const get = await call(emulator, `/user/keys/${created.id}`);
    expect(get.status).toBe(404);
    expect(await readJson(get)).toEqual({ message: "Item not found." });
    const again = await call(emulator, `/user/keys/${created.id}`, { method: "DELETE" });
    expect(again.status).toBe(404);
    expect(await readJson(again)).toEqual({ message: "Item not found." });
  });

  it("frees the key so it can be registered again with a new id", async () => {
    const key = ed25519Key("again");
    const created = await readJson(await createKey({ public_key: key.line }));
    await call(emulator, `/user/keys/${created.id}`, { method: "DELETE" });
    const recreated = await createKey({ public_key: key.line });
    expect(recreated.status).toBe(201);
    expect((await readJson(recreated)).id).toBeGreaterThan(created.id);
  });
});
