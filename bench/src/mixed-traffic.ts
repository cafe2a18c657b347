// 100 connections for a minute, split 60/25/10/5 over whoami, introspect, login and token by
// four concurrent autocannon instances; the servers' RSS is sampled every 500 ms meanwhile.
import { benchPassword } from "./identity-api.ts";
import { runLoad, runLogins, type LoadFigures } from "./load.ts";
import type { RssSampler } from "./memory.ts";
import { urls } from "./ports.ts";
import { introspectRequest, tokenRequest, whoamiRequest, type Targets } from "./server-figures.ts";

export interface MixedFigures {
  seconds: number;
  connections: { whoami: number; introspect: number; login: number; token: number };
  whoami: LoadFigures;
  introspect: LoadFigures;
  login: LoadFigures;
  token: LoadFigures;
  errors: number;
  /** Highest sampled RSS of each server process during the minute, bytes. */
  peakRssBytes: Record<string, number>;
}

export async function mixedTraffic(
  targets: Targets,
  sampler: RssSampler,
  seconds: number,
): Promise<MixedFigures> {
  const connections = { whoami: 60, introspect: 25, login: 10, token: 5 };
  sampler.reset();
  const [whoami, introspect, login, token] = await Promise.all([
    runLoad({ ...whoamiRequest(targets.sessionCookie), connections: connections.whoami, seconds }),
    runLoad({
      ...introspectRequest(targets.accessToken),
      connections: connections.introspect,
      seconds,
    }),
    runLogins(
      urls.identityPublic,
      targets.nextIdentifier,
      benchPassword,
      connections.login,
      seconds,
    ),
    runLoad({ ...tokenRequest(targets.client), connections: connections.token, seconds }),
  ]);
  return {
    seconds,
    connections,
    whoami,
    introspect,
    login,
    token,
    errors: whoami.errors + introspect.errors + login.errors + token.errors,
    peakRssBytes: sampler.peak(),
  };
}
