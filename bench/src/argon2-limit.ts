// The hash-bound limit of password logins: cores ÷ time of one argon2id hash with the server's
// own parameters (its hashPassword: @node-rs/argon2 defaults, m=19456 KiB, t=2, p=1).
import { availableParallelism } from "node:os";
import { hashPassword } from "../../identity-server/src/methods/password/hasher.ts";
import { median, round } from "./stats.ts";

export interface HashFigures {
  cores: number;
  hashMedianMs: number;
  /** Logins per second if nothing but one hash per login used the cores. */
  limitPerSecond: number;
}

export async function measureHashLimit(samples = 30): Promise<HashFigures> {
  for (let i = 0; i < 3; i++) await hashPassword("warm-up-password");
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await hashPassword(`bench-password-${i}`);
    times.push(performance.now() - started);
  }
  const cores = availableParallelism();
  const hashMedianMs = median(times);
  return {
    cores,
    hashMedianMs: round(hashMedianMs),
    limitPerSecond: round(cores / (hashMedianMs / 1000), 1),
  };
}
