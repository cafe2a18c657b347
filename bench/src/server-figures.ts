// identity-server throughput and latency, each figure a separate autocannon run.
import type { HashFigures } from "./argon2-limit.ts";
import { basicAuth, benchPassword, tokenRequestBody, type OAuth2Client } from "./identity-api.ts";
import { runLoad, runLogins, type LoadFigures } from "./load.ts";
import { ports, urls } from "./ports.ts";
import { startNode, stopProcess, waitForPort } from "./processes.ts";

export interface Targets {
  /** Cookie header of a browser session. */
  sessionCookie: string;
  /** Round-robin identifiers with the bench password. */
  nextIdentifier: () => string;
  accessToken: string;
  client: OAuth2Client;
}

export const introspectRequest = (token: string) => ({
  url: `${urls.oauth2Admin}/admin/oauth2/introspect`,
  method: "POST" as const,
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: `token=${encodeURIComponent(token)}`,
});

export const tokenRequest = (client: OAuth2Client) => ({
  url: `${urls.oauth2Public}/oauth2/token`,
  method: "POST" as const,
  headers: {
    "content-type": "application/x-www-form-urlencoded",
    authorization: basicAuth(client),
  },
  body: tokenRequestBody,
});

export const whoamiRequest = (cookie: string) => ({
  url: `${urls.identityPublic}/sessions/whoami`,
  headers: { cookie },
});

export interface ServerFigures {
  bare: LoadFigures;
  whoami: LoadFigures;
  whoamiRatio: number;
  login: LoadFigures & { connections: number };
  loginRatio: number;
  introspect: LoadFigures & { connections: number };
  token: LoadFigures & { connections: number };
}

/** Unmeasured load before each measured bare / whoami / login run. */
const warmUpSeconds = 2;
/**
 * Logins are about a hundred times rarer per second than whoami requests: in 2 s the login code
 * runs a few hundred times, short of V8's optimising tiers (Maglev after 400 calls, TurboFan after
 * 3,000), so the measured run would still be warming up (issue 19: login-probe's first 8 s after a
 * 2 s warm-up cost 2.5 ms of main-thread CPU per login, the next rounds 2.0-2.2 ms).
 */
const loginWarmUpSeconds = 10;

export async function serverFigures(
  targets: Targets,
  hash: HashFigures,
  seconds: number,
): Promise<ServerFigures> {
  // Same autocannon settings for both: 50 connections, `seconds` each, one after the other.
  const bareProcess = startNode("bench/src/bare-fastify.ts", {
    BARE_PORT: String(ports.bareFastify),
  });
  await waitForPort(ports.bareFastify, bareProcess);
  // Each measured run follows an unmeasured warm-up of the same request, so the JIT's warm-up
  // (the bare server is fresh, the identity server is not) does not decide the ratio.
  const bareLoad = { url: `${urls.bareFastify}/`, connections: 50 };
  await runLoad({ ...bareLoad, seconds: warmUpSeconds });
  const bare = await runLoad({ ...bareLoad, seconds });
  await stopProcess(bareProcess);
  const whoamiLoad = { ...whoamiRequest(targets.sessionCookie), connections: 50 };
  await runLoad({ ...whoamiLoad, seconds: warmUpSeconds });
  const whoami = await runLoad({ ...whoamiLoad, seconds });

  // Enough concurrent logins to keep every core hashing.
  const loginConnections = hash.cores * 4;
  await runLogins(
    urls.identityPublic,
    targets.nextIdentifier,
    benchPassword,
    loginConnections,
    loginWarmUpSeconds,
  );
  const login = await runLogins(
    urls.identityPublic,
    targets.nextIdentifier,
    benchPassword,
    loginConnections,
    seconds,
  );
  const introspectConnections = 20;
  const introspect = await runLoad({
    ...introspectRequest(targets.accessToken),
    connections: introspectConnections,
    seconds,
  });
  const tokenConnections = 10;
  const token = await runLoad({
    ...tokenRequest(targets.client),
    connections: tokenConnections,
    seconds,
  });
  return {
    bare,
    whoami,
    whoamiRatio: whoami.perSecond / bare.perSecond,
    login: { ...login, connections: loginConnections },
    loginRatio: login.perSecond / hash.limitPerSecond,
    introspect: { ...introspect, connections: introspectConnections },
    token: { ...token, connections: tokenConnections },
  };
}
