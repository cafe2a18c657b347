// whoami and login latency at modest load with 1k, 10k and 100k identities, each with a session.
import { benchPassword, emailOf, seedIdentities } from "./identity-api.ts";
import { runLoad, runLogins, type LoadFigures } from "./load.ts";
import { urls } from "./ports.ts";
import { seedSessions } from "./seed-sessions.ts";

export interface ScalePoint {
  identities: number;
  sessions: number;
  /** Wall time to bring the store to this size (identities through the admin API, sessions). */
  seedSeconds: { identities: number; sessions: number };
  whoami: LoadFigures & { connections: number };
  login: LoadFigures & { connections: number };
}

const randomIndex = (n: number) => Math.floor(Math.random() * n);

/**
 * Grows the store stage by stage. `seeded` identities (indexes 0…seeded-1) exist already without
 * sessions; the stages add identities and one session each for every identity.
 */
export async function scaling(
  dataDir: string,
  hash: string,
  seeded: { identityIds: string[] },
  stages: number[],
  seconds: number,
): Promise<ScalePoint[]> {
  const ids = [...seeded.identityIds];
  const tokens: string[] = [];
  const points: ScalePoint[] = [];
  for (const size of stages) {
    let started = performance.now();
    if (ids.length < size) ids.push(...(await seedIdentities(ids.length, size, hash)));
    const identitySeconds = (performance.now() - started) / 1000;
    started = performance.now();
    tokens.push(...(await seedSessions(dataDir, ids.slice(tokens.length, size))));
    const sessionSeconds = (performance.now() - started) / 1000;
    console.log(
      `        ${size} identities (identities seeded in ${identitySeconds.toFixed(1)} s, sessions in ${sessionSeconds.toFixed(1)} s)`,
    );

    const whoamiConnections = 10;
    const whoami = await runLoad({
      url: `${urls.identityPublic}/sessions/whoami`,
      connections: whoamiConnections,
      seconds,
      requests: [
        {
          method: "GET",
          setupRequest: (request) => ({
            ...request,
            headers: { "x-session-token": tokens[randomIndex(tokens.length)] ?? "" },
          }),
        },
      ],
    });
    const loginConnections = 4;
    const login = await runLogins(
      urls.identityPublic,
      () => emailOf(randomIndex(size)),
      benchPassword,
      loginConnections,
      seconds,
    );
    points.push({
      identities: size,
      sessions: tokens.length,
      seedSeconds: { identities: identitySeconds, sessions: sessionSeconds },
      whoami: { ...whoami, connections: whoamiConnections },
      login: { ...login, connections: loginConnections },
    });
  }
  return points;
}
