import { availableParallelism } from "node:os";
import * as argon2 from "@node-rs/argon2";
import * as bcrypt from "@node-rs/bcrypt";

// Each argon2id hash holds 19 MiB and a core for tens of milliseconds on a libuv pool thread.
// More hashes at once than there are cores finish no sooner, but hold more memory (the freed
// blocks stay in each pool thread's malloc arena) and keep the pool's threads from file system and
// crypto work; so at most one hash per core runs, the others wait their turn in order.
const maxConcurrentHashes = Math.max(1, availableParallelism());
let runningHashes = 0;
const waitingHashes: (() => void)[] = [];

async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (runningHashes >= maxConcurrentHashes) {
    await new Promise<void>((resolve) => waitingHashes.push(resolve));
  } else {
    runningHashes++;
  }
  try {
    return await work();
  } finally {
    const next = waitingHashes.shift();
    if (next) next();
    else runningHashes--;
  }
}

// A fixed hash to verify against when the identifier is unknown, so a login attempt for a missing
// account costs the same argon2 time as one with a wrong password and timing reveals nothing.
let dummyHash: Promise<string> | undefined;

/** argon2id with the library defaults (m=19456 KiB, t=2, p=1); `algorithm` is omitted on purpose. */
export function hashPassword(password: string): Promise<string> {
  return limited(() => argon2.hash(password));
}

// The PHC prefixes Kratos' hash comparator recognises for the two families we verify.
const argon2Pattern = /^\$argon2(id|i|d)\$/;
const bcryptPattern = /^\$2[abzy]?\$/;

function isArgon2Hash(value: string): boolean {
  return argon2Pattern.test(value);
}

function isBcryptHash(value: string): boolean {
  return bcryptPattern.test(value);
}

/** Why an imported hash is refused; `undefined` when it can be stored and verified. */
export type ImportedHashProblem = "unknown-format" | "unparseable" | "out-of-bounds";

// Kratos' limits for imported hashes (hash/hash_limits.go): a hash whose parameters exceed them
// would let one login attempt burn seconds of CPU or a gigabyte of memory.
const maxArgon2MemoryKiB = 1 << 20;
const maxArgon2Iterations = 10;
const maxArgon2Parallelism = 16;
const maxBcryptCost = 15;

/**
 * Checks a `hashed_password` given to the admin API: argon2 (PHC `$argon2id$…`, `$argon2i$…`) and
 * bcrypt (`$2a$`, `$2b$`, `$2y$`) are accepted when they parse and stay within Kratos' bounds.
 */
export function importedHashProblem(hashed: string): ImportedHashProblem | undefined {
  if (isArgon2Hash(hashed)) {
    let options: argon2.ParsedHashOptions;
    try {
      options = argon2.parseOptions(hashed);
    } catch {
      return "unparseable";
    }
    const within =
      options.memoryCost >= 1 &&
      options.memoryCost <= maxArgon2MemoryKiB &&
      options.timeCost >= 1 &&
      options.timeCost <= maxArgon2Iterations &&
      options.parallelism >= 1 &&
      options.parallelism <= maxArgon2Parallelism;
    return within ? undefined : "out-of-bounds";
  }
  if (isBcryptHash(hashed)) {
    let cost: number;
    try {
      cost = bcrypt.parseOptions(hashed).cost;
    } catch {
      return "unparseable";
    }
    return cost <= maxBcryptCost ? undefined : "out-of-bounds";
  }
  return "unknown-format";
}

/** Verifies in constant time (inside the hash); a malformed or unknown stored hash never matches. */
export async function verifyPassword(password: string, hashed: string): Promise<boolean> {
  try {
    if (isArgon2Hash(hashed)) return await limited(() => argon2.verify(hashed, password));
    if (isBcryptHash(hashed)) return await limited(() => bcrypt.verify(password, hashed));
    return false;
  } catch {
    return false;
  }
}

/**
 * Kratos re-hashes a password on a successful login when its configured hasher does not
 * "understand" the stored hash (password/login.go migratePasswordHash); ours is argon2id, so
 * imported bcrypt and argon2i/argon2d hashes become argon2id at the first login.
 */
export function needsRehash(hashed: string): boolean {
  return !hashed.startsWith("$argon2id$");
}

export async function spendDummyVerification(password: string): Promise<void> {
  dummyHash ??= hashPassword("not-a-real-password-used-only-for-timing");
  await verifyPassword(password, await dummyHash);
}
