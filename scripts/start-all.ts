// `npm start`: builds the portal (with --build), runs the embedded identity server, the portal and
// the demo agency product together (`npm run start:prod`, --prod: the files `npm run build` made,
// built nothing, production dependencies only, JSON logs unless LOG_FORMAT says otherwise), wires their URLs to each other, waits until each one is ready
// and prints where they are with the time since this script started ("Ready in …", the build
// included; the e2e suite and the bench wait for that line). The services log pino JSON; the
// console shows it as readable lines unless LOG_FORMAT=json (console-format.ts).
//
//   node scripts/start-all.ts [--build | --prod]
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { builtEntry } from "./built-artifacts.ts";
import { chooseLogFormat, prettyPrinter, type LogFormat } from "./console-format.ts";
import { memorySettings } from "./memory-settings.ts";

const env = process.env;
const root = fileURLToPath(new URL("..", import.meta.url));
const production = process.argv.includes("--prod");

/**
 * The server's plain-JavaScript entry point: as built by `npm run build` (--prod), else built now
 * if a source changed (server-build.ts, loaded only then: it needs the TypeScript compiler).
 */
async function serverScript(name: string): Promise<string> {
  if (production) return builtEntry(root, name);
  const { buildServer } = await import("./server-build.ts");
  return buildServer(name);
}

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
  nodeArgs?: readonly string[];
  cwd: string;
  /** Every port it listens on: it is ready once all accept connections… */
  ports: string[];
  /** …and this answers 200. */
  readyUrl?: string;
  env: Record<string, string>;
};

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

async function answersOk(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

async function waitUntilReady(service: Service, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  const ready = async () =>
    (await Promise.all(service.ports.map(accepting))).every(Boolean) &&
    (service.readyUrl === undefined || (await answersOk(service.readyUrl)));
  while (!(await ready())) {
    if (child.exitCode !== null) throw new Error(`${service.name} exited with ${child.exitCode}`);
    if (Date.now() > deadline) {
      throw new Error(`${service.name} was not ready on ${service.ports.join(", ")} within 60 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `npm run build -w portal`, quieter: warnings and errors only, then how long it took. */
function buildPortal(): Promise<boolean> {
  console.log("Building the portal…");
  const started = performance.now();
  const build = spawn(process.execPath, [`${root}scripts/build-portal.ts`, "--logLevel", "warn"], {
    cwd: `${root}portal`,
    // Its stdout through a pipe: Vite clears a terminal's screen (this script's lines above with
    // it) and draws progress lines there. Warnings and errors (stderr) reach the terminal as such.
    stdio: ["ignore", "pipe", "inherit"],
  });
  build.stdout.pipe(process.stdout, { end: false });
  return new Promise((resolve) => {
    // "close": after its last output, not only its exit.
    build.once("close", (code) => {
      if (code === 0) {
        console.log(`Portal built in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
      } else {
        console.error(`The portal's build failed (exit ${code}); nothing was started.`);
      }
      resolve(code === 0);
    });
  });
}

/** Each line a service logs, shown as console-format.ts makes it readable. */
function showPretty(service: Service, child: ChildProcess): void {
  if (!child.stdout) return;
  const print = prettyPrinter(service.name, {
    colorize: process.stdout.isTTY === true,
    mailboxUrl:
      embedded && !env.SMTP_URL && env.IDENTITY_MAILBOX_ENABLED !== "false"
        ? `http://127.0.0.1:${mailboxPort}/`
        : undefined,
  });
  createInterface({ input: child.stdout, crlfDelay: Infinity }).on("line", (line) => {
    process.stdout.write(print(line));
  });
}

async function main(format: LogFormat): Promise<void> {
  if (!production && process.argv.includes("--build") && !(await buildPortal())) {
    process.exitCode = 1;
    return;
  }

  const services: Service[] = [
    {
      name: "portal",
      // Plain JavaScript as for the identity server below.
      script: await serverScript("portal"),
      // V8 and glibc memory settings (memory-settings.ts says why; portal/package.json has them too).
      nodeArgs: memorySettings.portal.nodeArgs,
      cwd: `${root}portal`,
      ports: [portalPort],
      env: {
        ...memorySettings.portal.env,
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
      ports: [demoPort],
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
      script: await serverScript("identity-server"),
      // identity-server/package.json's start script has the same settings; its README says why.
      nodeArgs: memorySettings["identity-server"].nodeArgs,
      cwd: `${root}identity-server`,
      // Every listener, the OAuth2 ones last, then the readiness the portal asks for too.
      ports: [identityPublicPort, identityAdminPort, oauth2PublicPort, oauth2AdminPort],
      readyUrl: `http://127.0.0.1:${identityAdminPort}/health/ready`,
      env: {
        ...memorySettings["identity-server"].env,
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

  const ready: Promise<void>[] = [];
  for (const service of services) {
    // Variables set by the caller win over the wiring above.
    const childEnv = { ...service.env, ...env };
    const child = spawn(process.execPath, [...(service.nodeArgs ?? []), service.script], {
      cwd: service.cwd,
      env: childEnv,
      // JSON goes straight through; pretty lines are made here. Errors (stderr) come as they are.
      stdio: ["ignore", format === "json" ? "inherit" : "pipe", "inherit"],
    });
    children.push(child);
    if (format === "pretty") showPretty(service, child);
    child.once("exit", (code, signal) => {
      if (!stopping) {
        console.error(`${service.name} stopped (${signal ?? code}); stopping the others.`);
        stopAll(code ?? 1);
      }
    });
    ready.push(waitUntilReady(service, child));
  }

  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => stopAll(0));

  try {
    await Promise.all(ready);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    stopAll(1);
  }
  if (!stopping) {
    // performance.now() counts from this process's start: the build and every wait are in it.
    const seconds = (performance.now() / 1000).toFixed(1);
    console.log(`
Ready in ${seconds} s (Node ${process.version}):
  sign-in portal           ${portalUrl}/
  agency product (demo)    ${demoUrl}/
  identity service         ${embedded ? `${identityUrl} (public), http://127.0.0.1:${identityAdminPort} (admin, loopback only)` : identityUrl}${embedded ? `\n  OAuth2 service           http://localhost:${oauth2PublicPort} (public), http://127.0.0.1:${oauth2AdminPort} (admin, loopback only)` : ""}${embedded && !env.SMTP_URL ? `\n  mailbox (e-mail and SMS) http://127.0.0.1:${mailboxPort}/` : ""}
Press Ctrl+C to stop.`);
  }
}

// LOG_FORMAT is read and validated before anything is built or started.
let format: LogFormat | undefined;
try {
  // A production run's console is collected: JSON, and no pino-pretty (a dev dependency) needed.
  format =
    production && !env.LOG_FORMAT ? "json" : chooseLogFormat(env, process.stdout.isTTY === true);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
if (format) {
  await main(format).catch((error: unknown) => {
    // A missing build (--prod) and the like: the message, not a stack trace.
    console.error(error instanceof Error ? error.message : error);
    stopAll(1);
  });
}
