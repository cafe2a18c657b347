// The hash-bound limit of password logins: how many argon2id hashes per second the machine
// completes with the server's own parameters (its hashPassword: @node-rs/argon2 defaults,
// m=19456 KiB, t=2, p=1) when every core hashes at once, as the cores do under a sign-in load.
// Two 19 MiB hashes share the cores' last-level cache and memory bandwidth, so each takes longer
// than one alone: cores ÷ one hash's time alone overstates what the machine can hash.
import { availableParallelism } from "node:os";
import { hashPassword } from "../../identity-server/src/methods/password/hasher.ts";
import { median, round } from "./stats.ts";

export interface HashFigures {
  cores: number;
  /** Median time of one hash with nothing else hashing. */
  hashMedianMs: number;
  /** Median time of one hash while every core hashes. */
  hashTogetherMs: number;
  /** Logins per second if nothing but one hash per login used the cores (hashes/s, all cores). */
  limitPerSecond: number;
  /** What the limit would be from one hash's time alone (cores ÷ hashMedianMs), for comparison. */
  limitAlonePerSecond: number;
}

async function timed(password: string): Promise<number> {
  const started = performance.now();
  await hashPassword(password);
  return performance.now() - started;
}

export async function measureHashLimit(samples = 30): Promise<HashFigures> {
  const cores = availableParallelism();
  for (let i = 0; i < 3; i++) await hashPassword("warm-up-password");
  const alone: number[] = [];
  for (let i = 0; i < samples; i++) alone.push(await timed(`bench-password-${i}`));
  // One hash in flight per core, each started as the previous one ends: a saturated login load.
  const together: number[] = [];
  let started = 0;
  const began = performance.now();
  const lane = async () => {
    while (started < samples * cores) together.push(await timed(`bench-password-${started++}`));
  };
  await Promise.all(Array.from({ length: cores }, lane));
  const seconds = (performance.now() - began) / 1000;
  const hashMedianMs = median(alone);
  return {
    cores,
    hashMedianMs: round(hashMedianMs),
    hashTogetherMs: round(median(together)),
    limitPerSecond: round(together.length / seconds, 1),
    limitAlonePerSecond: round(cores / (hashMedianMs / 1000), 1),
  };
}
