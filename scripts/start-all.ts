// `npm start`: runs the embedded identity server, the portal and the demo agency product together,
// wires their URLs to each other, waits until each one accepts connections and prints where they are.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { buildServer } from "./server-build.ts";

const env = process.env;
const root = fileURLToPath(new URL("..", import.meta.url));
const startedAt = performance.now();

const portalPort = env.PORTAL_PORT ?? "3000";
const demoPort = env.DEMO_PORT ?? "4000";
const identityPublicPort = env.IDENTITY_PUBLIC_PORT ?? "4433";
const identityAdminPort = env.IDENTITY_ADMIN_PORT ?? "4434";
const mailboxPort = env.IDENTITY_MAILBOX_PORT ?? "4436";
const oauth2PublicPort = env.IDENTITY_OAUTH2_PUBLIC_PORT ?? "4444";
const oauth2AdminPort = env.IDENTITY_OAUTH2_ADMIN_PORT ?? "4445";
const portalUrl = (env.PORTAL_PUBLIC_URL ?? `http://localhost:${portalPort}`).replace(/\/$/, "");
const demoUrl = (env.DEMO_PUBLIC_URL ?? `http://localhost:${demoPort}`).replace(/\/$/, "");
// EMBEDDED_IDENTITY=false points the portal at an Ory Kratos given by KRATOS_PUBLIC_URL instead.
const embedded = (env.EMBEDDED_IDENTITY ?? "true") !== "false";
const identityUrl = env.KRATOS_PUBLIC_URL ?? `http://127.0.0.1:${identityPublicPort}`;
const oauth2Issuer = (env.IDENTITY_OAUTH2_ISSUER ?? `http://localhost:${oauth2PublicPort}`).replace(
  /\/$/,
  "",
);

// The demo signs in through the OAuth2 service as a confidential client. In the embedded default
// a fresh secret per start registers it (the seed client is replaced at every start-up), so no
// shared secret has to live in the repository. Elsewhere the caller registers the client and
// passes its secret; without one the demo stops with a message naming the variable.
const demoClientId = env.DEMO_OIDC_CLIENT_ID ?? "demo-portal";
const demoClientSecret =
  env.DEMO_OIDC_CLIENT_SECRET ?? (embedded ? randomBytes(32).toString("base64url") : undefined);
const demoSeedClient = {
  client_id: demoClientId,
  client_secret: demoClientSecret,
  client_name: "Agency product",
  redirect_uris: [`${demoUrl}/auth/callback`],
  post_logout_redirect_uris: [`${demoUrl}/`],
  grant_types: ["authorization_code", "refresh_token"],
  response_types: ["code"],
  scope: "openid offline_access email profile",
  // First party: the portal's consent page accepts at once.
  skip_consent: true,
};

type Service = {
  name: string;
  script: string;
  /** Node options before the script. */
  nodeArgs?: string[];
  cwd: string;
  port: string;
  env: Record<string, string>;
};

const services: Service[] = [
  {
    name: "portal",
    // Plain JavaScript as for the identity server below.
    script: await buildServer("portal"),
    // As the identity server's (its README says why): server renders allocate fast enough for V8
    // to grow the young generation to 128 MB on a large-RAM machine (RSS 250+ MB, 50 MB live).
    nodeArgs: ["--max-semi-space-size=8", "--heap-growing-percent=50"],
    cwd: `${root}portal`,
    port: portalPort,
    env: {
      NODE_ENV: "production",
      PORTAL_PORT: portalPort,
      PORTAL_PUBLIC_URL: portalUrl,
      KRATOS_PUBLIC_URL: identityUrl,
      SSO_PORTAL_URL: demoUrl,
      ...(embedded
        ? {
            HYDRA_ADMIN_URL: `http://127.0.0.1:${oauth2AdminPort}`,
            HYDRA_PUBLIC_URL: `http://localhost:${oauth2PublicPort}`,
          }
        : {}),
    },
  },
  {
    name: "demo-portal",
    script: "src/main.ts",
    cwd: `${root}demo-portal`,
    port: demoPort,
    env: {
      DEMO_PORT: demoPort,
      DEMO_PUBLIC_URL: demoUrl,
      PORTAL_PUBLIC_URL: portalUrl,
      ...(embedded ? { DEMO_OIDC_ISSUER: oauth2Issuer } : {}),
      DEMO_OIDC_CLIENT_ID: demoClientId,
      ...(demoClientSecret ? { DEMO_OIDC_CLIENT_SECRET: demoClientSecret } : {}),
    },
  },
];
if (embedded) {
  services.unshift({
    name: "identity-server",
    // Plain JavaScript built from src (scripts/server-build.ts; rebuilt when a source changed):
    // Node's type stripping would keep tens of MB for the process's life.
    script: await buildServer("identity-server"),
    // identity-server/package.json's start script has the same flags; its README says why.
    nodeArgs: ["--max-semi-space-size=4", "--heap-growing-percent=50"],
    cwd: `${root}identity-server`,
    port: identityPublicPort,
    env: {
      // glibc malloc: allocations from 1 MiB up (an argon2id hash's 19 MiB, a client secret
      // scrypt's 16 MiB, both in libuv pool threads) get their own mapping, returned on free,
      // instead of staying in a pool thread's arena after the dynamic threshold has risen.
      GLIBC_TUNABLES: "glibc.malloc.mmap_threshold=1048576",
      // …and the pool threads share two arenas instead of one each (less memory held in
      // half-empty arenas; no slower logins measured).
      MALLOC_ARENA_MAX: "2",
      IDENTITY_PUBLIC_PORT: identityPublicPort,
      IDENTITY_ADMIN_PORT: identityAdminPort,
      IDENTITY_MAILBOX_PORT: mailboxPort,
      IDENTITY_OAUTH2_PUBLIC_PORT: oauth2PublicPort,
      IDENTITY_OAUTH2_ADMIN_PORT: oauth2AdminPort,
      IDENTITY_OAUTH2_ISSUER: oauth2Issuer,
      IDENTITY_OAUTH2_LOGIN_URL: `${portalUrl}/login`,
      IDENTITY_OAUTH2_CONSENT_URL: `${portalUrl}/consent`,
      IDENTITY_OAUTH2_LOGOUT_URL: `${portalUrl}/logout`,
      IDENTITY_OAUTH2_POST_LOGOUT_REDIRECT_URL: `${portalUrl}/`,
      IDENTITY_DATA_DIR: env.IDENTITY_DATA_DIR ?? `${root}data`,
      IDENTITY_PUBLIC_BASE_URL: `${portalUrl}/api/kratos`,
      IDENTITY_UI_BASE_URL: portalUrl,
      IDENTITY_DEFAULT_RETURN_URL: `${portalUrl}/`,
      IDENTITY_ALLOWED_RETURN_URLS: `${portalUrl}/,${demoUrl}/`,
      IDENTITY_OAUTH2_SEED_CLIENT: JSON.stringify(demoSeedClient),
    },
  });
}

const children: ChildProcess[] = [];
let stopping = false;

function stopAll(code: number): void {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill("SIGTERM");
  process.exitCode = code;
}

function accepting(port: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port: Number(port) });
    socket.once("connect", () => {
      socket.end();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function waitUntilAccepting(service: Service, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await accepting(service.port))) {
    if (child.exitCode !== null) throw new Error(`${service.name} exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${service.name} did not listen on ${service.port}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const ready: Promise<void>[] = [];
for (const service of services) {
  // Variables set by the caller win over the wiring above.
  const childEnv = { ...service.env, ...env };
  const child = spawn(process.execPath, [...(service.nodeArgs ?? []), service.script], {
    cwd: service.cwd,
    env: childEnv,
    stdio: ["ignore", "inherit", "inherit"],
  });
  children.push(child);
  child.once("exit", (code, signal) => {
    if (!stopping) {
      console.error(`${service.name} stopped (${signal ?? code}); stopping the others.`);
      stopAll(code ?? 1);
    }
  });
  ready.push(waitUntilAccepting(service, child));
}

for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stopAll(0));

try {
  await Promise.all(ready);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  stopAll(1);
}
if (!stopping) {
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  console.log(`
Ready in ${seconds} s (Node ${process.version}):
  sign-in portal           ${portalUrl}/
  agency product (demo)    ${demoUrl}/
  identity service         ${embedded ? `${identityUrl} (public), http://127.0.0.1:${identityAdminPort} (admin, loopback only)` : identityUrl}${embedded ? `\n  OAuth2 service           http://localhost:${oauth2PublicPort} (public), http://127.0.0.1:${oauth2AdminPort} (admin, loopback only)` : ""}${embedded && !env.SMTP_URL ? `\n  mailbox (e-mail and SMS) http://127.0.0.1:${mailboxPort}/` : ""}
Press Ctrl+C to stop.`);
}
