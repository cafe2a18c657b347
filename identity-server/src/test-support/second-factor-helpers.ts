import { readFileSync } from "node:fs";
import type { FrontendApi, LoginFlow, SettingsFlow, UiNode } from "@ory/client-fetch";
import { Secret, TOTP } from "otpauth";
import { call, type CookieJar, type TestResponse } from "./http-client.ts";
import { csrfTokenOf, strongPassword } from "./flow-helpers.ts";
import type { TestServer } from "./test-server.ts";

export interface Browser {
  api: FrontendApi;
  jar: CookieJar;
}

/** The vendored Kratos/Elements JSON with the given file name (vendor/ory/flows). */
export function vendoredFlowFile<T>(name: string): T {
  return JSON.parse(
    readFileSync(new URL(`../../../vendor/ory/flows/${name}`, import.meta.url), "utf8"),
  ) as T;
}

/**
 * Nodes reduced to what does not vary between runs: the csrf value, image sources and the
 * texts/contexts of text nodes (secrets, codes) are dropped, as Kratos' snapshot tests drop them.
 */
export function stableNodes(nodes: readonly UiNode[]): unknown[] {
  return nodes.map((node) => {
    const attributes = { ...(node.attributes as unknown as Record<string, unknown>) };
    if (attributes.name === "csrf_token") delete attributes.value;
    if (attributes.node_type === "img") delete attributes.src;
    if (attributes.node_type === "text") {
      const text = attributes.text as { id: number; type: string };
      attributes.text = { id: text.id, type: text.type };
    }
    return { ...node, attributes };
  });
}

export function nodesOfGroups(
  flow: { ui: { nodes: UiNode[] } },
  groups: readonly string[],
): UiNode[] {
  return flow.ui.nodes.filter((node) => groups.includes(node.group));
}

/** A browser that signed in with its password (JSON); the answer may be 200 or the 422 aal2 hop. */
export async function passwordSignIn(
  ts: TestServer,
  email: string,
  browser: Browser = ts.browser(),
  headers: Record<string, string> = {},
): Promise<{ browser: Browser; answer: TestResponse }> {
  const flow = await browser.api.createBrowserLoginFlow();
  const answer = await call(`${ts.publicUrl}/self-service/login?flow=${flow.id}`, {
    method: "POST",
    jar: browser.jar,
    headers: { "content-type": "application/json", accept: "application/json", ...headers },
    body: JSON.stringify({
      method: "password",
      identifier: email,
      password: strongPassword,
      csrf_token: csrfTokenOf(flow),
    }),
  });
  return { browser, answer };
}

/** The settings flow's TOTP secret (the `totp_secret_key` text node's context). */
export function totpSecretOf(flow: SettingsFlow): string {
  const node = flow.ui.nodes.find(
    (n) => (n.attributes as { id?: string }).id === "totp_secret_key",
  );
  const secret = (node?.attributes as { text?: { context?: { secret?: unknown } } } | undefined)
    ?.text?.context?.secret;
  if (typeof secret !== "string") throw new Error("the flow offers no TOTP secret");
  return secret;
}

/** What an authenticator app shows for the secret at the given time. */
export function totpCode(secret: string, at: Date): string {
  return new TOTP({
    secret: Secret.fromBase32(secret),
    algorithm: "SHA1",
    digits: 6,
    period: 30,
  }).generate({ timestamp: at.getTime() });
}

/** Links an authenticator app in settings (the browser's session must be privileged). */
export async function linkTotp(ts: TestServer, browser: Browser): Promise<string> {
  const flow = await browser.api.createBrowserSettingsFlow();
  const secret = totpSecretOf(flow);
  await browser.api.updateSettingsFlow({
    flow: flow.id,
    updateSettingsFlowBody: {
      method: "totp",
      totp_code: totpCode(secret, ts.now()),
      csrf_token: csrfTokenOf(flow),
    },
  });
  return secret;
}

/** Submits a second-factor login flow as JSON; the raw answer (status, body, headers). */
export async function submitLogin(
  ts: TestServer,
  browser: Browser,
  flow: LoginFlow,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<TestResponse> {
  return call(`${ts.publicUrl}/self-service/login?flow=${flow.id}`, {
    method: "POST",
    jar: browser.jar,
    headers: { "content-type": "application/json", accept: "application/json", ...headers },
    body: JSON.stringify({ csrf_token: csrfTokenOf(flow), ...body }),
  });
}

/** Starts the aal2 login of the browser's session and answers it with the authenticator app. */
export async function completeTotp(
  ts: TestServer,
  browser: Browser,
  secret: string,
  extra: Record<string, unknown> = {},
  at: Date = ts.now(),
): Promise<TestResponse> {
  const flow = await browser.api.createBrowserLoginFlow({ aal: "aal2" });
  return submitLogin(ts, browser, flow, {
    method: "totp",
    totp_code: totpCode(secret, at),
    ...extra,
  });
}

/** The status and body of whoami for the browser. */
export async function whoami(ts: TestServer, browser: Browser): Promise<TestResponse> {
  return call(`${ts.publicUrl}/sessions/whoami`, {
    jar: browser.jar,
    headers: { accept: "application/json" },
  });
}

/** Verifies the identity's e-mail address with the code the mailbox received. */
export async function verifyEmail(ts: TestServer, email: string): Promise<void> {
  const { api } = ts.browser();
  const flow = await api.createBrowserVerificationFlow();
  const sent = await api.updateVerificationFlow({
    flow: flow.id,
    updateVerificationFlowBody: { method: "code", email, csrf_token: csrfTokenOf(flow) },
  });
  const code = await ts.latestCode(email);
  await api.updateVerificationFlow({
    flow: sent.id,
    updateVerificationFlowBody: { method: "code", code },
  });
}
