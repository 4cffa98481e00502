/** PublicKey in the tests: an SSH key line of the key's user. */
import { freshEd25519Key } from "../../support/keys";
import { badInput, type KindTests, NONE_MADE_BY_THE_SERVICE, LONG_NAME, presentByName, referenceExample, soakName, tableOfTheAccount } from "../kind-tests";

/** One key for every run of a program, so an unchanged program stays unchanged. */
const EXAMPLE_KEY = freshEd25519Key("example@example.com");

const KEY = freshEd25519Key("bad-input");
const KEY_WITHOUT_COMMENT = KEY.split(" ").slice(0, 2).join(" ");
const PRIVATE_BODY = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW";
const PRIVATE_KEY = `-----BEGIN OPENSSH PRIVATE KEY-----\n${PRIVATE_BODY}\n-----END OPENSSH PRIVATE KEY-----\n`;

function wire(data: string | Buffer): Buffer {
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  return Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), bytes]);
}
const wireMpint = (bytes: Buffer) => wire(bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
const SMALL_RSA = `ssh-rsa ${Buffer.concat([wire("ssh-rsa"), wireMpint(Buffer.from([1, 0, 1])), wireMpint(Buffer.alloc(64, 0xc5))]).toString("base64")} small`;
const DSA = `ssh-dss ${Buffer.concat(["ssh-dss", "p", "q", "g", "y"].map((field) => wire(field))).toString("base64")} old`;
/** Well-formed base64 and wire format, but a 16-byte ed25519 body, which the service refuses. */
const SHORT_ED25519 = `ssh-ed25519 ${Buffer.concat([wire("ssh-ed25519"), wire(Buffer.alloc(16, 7))]).toString("base64")} short`;

const rows = tableOfTheAccount("publicKeys");
const name = soakName("key");

export const publicKey: KindTests = {
  rows,
  made: { rows, id: (row) => String(row.id) },
  exampleInputs: () => ({ ...referenceExample("PublicKey"), publicKey: EXAMPLE_KEY }),
  replacingChange: { name: "deploy key, renamed" },
  oldObject: "deleted",
  forcedReplacement: "new object",
  soak: {
    count: 4,
    name,
    args: (i, { keys }) => ({ publicKey: keys[i], name: name(i) }),
    object: presentByName,
    leftover: (r) => `key ${r.id} (${r.name}) still exists`,
    serviceMade: NONE_MADE_BY_THE_SERVICE,
  },
  badInputs: [
    badInput("private key pasted", "publicKey", { publicKey: PRIVATE_KEY, name: "k" }, PRIVATE_BODY),
    badInput("key of the wrong type", "publicKey", { publicKey: 42 }),
    badInput("missing key", "publicKey", { name: "k" }),
    badInput("empty key", "publicKey", { publicKey: "" }),
    badInput("blob not base64", "publicKey", { publicKey: "ssh-rsa not-base64!", name: "k" }),
    badInput("unsupported key type", "publicKey", { publicKey: "ssh-foo AAAAB3NzaC1yc2E= k", name: "k" }),
    badInput("blob of another type", "publicKey", { publicKey: `ssh-rsa ${KEY.split(" ")[1]} k` }),
    badInput("ed25519 body of 16 bytes", "publicKey", { publicKey: SHORT_ED25519 }),
    badInput("key on two lines", "publicKey", { publicKey: `${KEY}\n${KEY}` }),
    badInput("RSA key of 512 bits", "publicKey", { publicKey: SMALL_RSA }),
    badInput("DSA key", "publicKey", { publicKey: DSA }),
    badInput("empty name", "name", { publicKey: KEY, name: "" }),
    badInput("name over 255 characters", "name", { publicKey: KEY, name: LONG_NAME }),
    badInput("name with a control character", "name", { publicKey: KEY, name: "a\u0007b" }),
    badInput("no name and a key without comment", "name", { publicKey: KEY_WITHOUT_COMMENT }),
    badInput("unknown input", "comment", { publicKey: KEY, comment: "laptop" }),
    badInput("importId not a number", "importId", { publicKey: KEY, importId: "key-10" }),
  ],
};
