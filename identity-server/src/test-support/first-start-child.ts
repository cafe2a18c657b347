import { createHash } from "node:crypto";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { loadOrCreateSigningKeys } from "../oauth2/crypto/signing-keys.ts";
import { migrateOAuth2 } from "../oauth2/store/oauth2-migrations.ts";
import type { OAuth2Db } from "../oauth2/store/oauth2-tables.ts";
import { loadOrCreateSecrets } from "../secret.ts";
import { SessionTokenizer } from "../session/tokenizer.ts";
import { openDatabase } from "../store/database.ts";

// What a server does to a new data dir before it listens (open and migrate the database, the
// secret, the OAuth2 signing keys, the session tokenizer's key), in its own process, started when
// the test writes a line: several of these released at once race as starting servers would,
// without the second or so of module loading that keeps whole servers apart. It prints what it
// ended up using as one JSON line.

const dataDir = process.argv[2] ?? "";
const lines = createInterface({ input: process.stdin });
process.stdout.write("ready\n");
await once(lines, "line");
lines.close();

const now = () => new Date();
const db = await openDatabase(dataDir);
try {
  await migrateOAuth2(db as unknown as OAuth2Db, now);
  const secrets = loadOrCreateSecrets(dataDir, undefined);
  const keys = await loadOrCreateSigningKeys(db as unknown as OAuth2Db, secrets, now);
  const tokenizer = await SessionTokenizer.create(
    { templates: { api: { ttlMs: 60_000, subjectSource: "id" } }, keyFile: undefined },
    "http://localhost/",
    dataDir,
  );
  process.stdout.write(
    `${JSON.stringify({
      secret: createHash("sha256").update(secrets[0]).digest("hex"),
      signingKids: keys.map((key) => key.kid),
      tokenizerKids: tokenizer.publicJwks().keys.map((key) => key.kid),
    })}\n`,
  );
} finally {
  await db.destroy();
}
