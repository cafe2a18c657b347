// The portal as people use it (issue 19), each figure beside the same work done directly against
// the identity API, one right after the other with the same connections:
// - /en/login page views through the portal (each view creates a flow, as Kratos UIs do, and
//   renders it in the same response) ÷ browser login flows created directly;
// - complete no-JavaScript sign-ins through the portal (the GET of a view, the form post with
//   the CSRF cookie and token, then the redirects the portal answers) ÷ browser logins directly
//   (create the flow, post the password with its CSRF cookie and token, as JSON);
// - the server render of /en/login without the identity service (render-probe.ts).
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { benchPassword } from "./identity-api.ts";
import type { LoadFigures } from "./load.ts";
import { ports, urls } from "./ports.ts";
import { repoRoot } from "./processes.ts";
import { runSequence, type Step, type Visit } from "./browser-sequences.ts";

export interface PortalTrafficFigures {
  viewConnections: number;
  portalViews: LoadFigures;
  directFlows: LoadFigures;
  viewRatio: number;
  signInConnections: number;
  portalSignIns: LoadFigures;
  directLogins: LoadFigures;
  signInRatio: number;
  render: RenderFigures;
}

interface RenderFigures {
  path: string;
  samples: number;
  medianMs: number;
  p95Ms: number;
  cpuMsPerRender: number;
  htmlBytes: number;
}

const isRedirect = (status: number) => status >= 300 && status < 400;
const isOk = (status: number) => status === 200;

/** The path (and query) of a Location the portal answered, which may be absolute. */
const pathOf = (location: string | undefined): string => {
  const url = new URL(location ?? "/", urls.portal);
  return `${url.pathname}${url.search}`;
};

const htmlAttribute = (text: string) =>
  text.replaceAll("&amp;", "&").replaceAll("&quot;", '"').replaceAll("&#x27;", "'");

/** The CSRF token and the form's action in the page's HTML (React renders both as attributes). */
export function signInForm(html: string): { csrfToken: string; action: string } | undefined {
  const input = /<input[^>]*\bname="csrf_token"[^>]*>/.exec(html)?.[0];
  const token = input && /\bvalue="([^"]*)"/.exec(input)?.[1];
  const action = /<form[^>]*\baction="([^"]*)"[^>]*\bmethod="post"/i.exec(html)?.[1];
  if (!token || !action) return undefined;
  return { csrfToken: htmlAttribute(token), action: htmlAttribute(action) };
}

/** GET /en/login: the page of a new flow, with its CSRF cookie, in one response. */
const pageView: Step[] = [
  { to: () => ({ path: "/en/login" }), headers: { accept: "text/html" }, expect: isOk },
];

function portalSignIn(nextIdentifier: () => string): Step[] {
  return [
    ...pageView,
    {
      method: "POST",
      to: (v) => {
        const form = signInForm(v.body ?? "");
        const body = new URLSearchParams({
          csrf_token: form?.csrfToken ?? "",
          identifier: nextIdentifier(),
          password: benchPassword,
          method: "password",
        });
        return { path: form?.action ?? "/en/login", body: body.toString() };
      },
      headers: { accept: "text/html", "content-type": "application/x-www-form-urlencoded" },
      expect: isRedirect,
    },
    // The portal's start page reads the new session and sends the browser on to where a signed-in
    // person goes (the demo product here, not fetched: it is not the portal's work); without a
    // session it would answer the login page instead, which counts as a failed sign-in.
    {
      to: (v) => ({ path: pathOf(v.location) }),
      headers: { accept: "text/html" },
      expect: isRedirect,
    },
  ];
}

const flowId = (v: Visit) => (JSON.parse(v.body ?? "{}") as { id?: string }).id ?? "";
const csrfOfFlow = (v: Visit): string => {
  const flow = JSON.parse(v.body ?? "{}") as {
    ui?: { nodes?: { attributes?: { name?: string; value?: unknown } }[] };
  };
  const value = flow.ui?.nodes?.find((n) => n.attributes?.name === "csrf_token")?.attributes?.value;
  return typeof value === "string" ? value : "";
};

const directFlow: Step = {
  to: () => ({ path: "/self-service/login/browser" }),
  headers: { accept: "application/json" },
  expect: isOk,
};

function directLogin(nextIdentifier: () => string): Step[] {
  return [
    directFlow,
    {
      method: "POST",
      to: (v) => ({
        path: `/self-service/login?flow=${flowId(v)}`,
        body: JSON.stringify({
          method: "password",
          identifier: nextIdentifier(),
          password: benchPassword,
          csrf_token: csrfOfFlow(v),
        }),
      }),
      headers: { accept: "application/json", "content-type": "application/json" },
      expect: isOk,
    },
  ];
}

const warmUpSeconds = 2;

async function measured(run: (seconds: number) => Promise<LoadFigures>, seconds: number) {
  await run(warmUpSeconds);
  return run(seconds);
}

export async function portalTraffic(
  nextIdentifier: () => string,
  cores: number,
  seconds: number,
): Promise<PortalTrafficFigures> {
  const viewConnections = 10;
  const portalViews = await measured(
    (s) => runSequence(urls.portal, pageView, viewConnections, s),
    seconds,
  );
  const directFlows = await measured(
    (s) => runSequence(urls.identityPublic, [directFlow], viewConnections, s),
    seconds,
  );
  // As many as the direct logins of the server figures: enough to keep every core hashing.
  const signInConnections = cores * 4;
  const portalSignIns = await measured(
    (s) => runSequence(urls.portal, portalSignIn(nextIdentifier), signInConnections, s),
    seconds,
  );
  const directLogins = await measured(
    (s) => runSequence(urls.identityPublic, directLogin(nextIdentifier), signInConnections, s),
    seconds,
  );
  return {
    viewConnections,
    portalViews,
    directFlows,
    viewRatio: portalViews.perSecond / directFlows.perSecond,
    signInConnections,
    portalSignIns,
    directLogins,
    signInRatio: portalSignIns.perSecond / directLogins.perSecond,
    render: await renderProbe(),
  };
}

/** render-probe.ts in a child process with the portal's environment (as start-all gives it). */
async function renderProbe(): Promise<RenderFigures> {
  const { stdout } = await promisify(execFile)(process.execPath, ["bench/src/render-probe.ts"], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      PORTAL_PORT: String(ports.portal),
      PORTAL_PUBLIC_URL: urls.portal,
      KRATOS_PUBLIC_URL: urls.identityPublic,
      SSO_PORTAL_URL: `http://localhost:${ports.demo}`,
      HYDRA_ADMIN_URL: urls.oauth2Admin,
      HYDRA_PUBLIC_URL: urls.oauth2Public,
      RENDER_PROBE_SAMPLES: process.env.BENCH_RENDER_PROBE_SAMPLES ?? "200",
    },
    timeout: 120_000,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as RenderFigures;
}
