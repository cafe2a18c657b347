// The identity server's HTTP APIs as the bench uses them: admin seeding, API and browser logins,
// OAuth2 clients and client_credentials tokens.
import { urls } from "./ports.ts";

export const benchPassword = "bench-Password-2024!";

export const emailOf = (index: number): string => `user-${index}@bench.example`;

async function json<T>(response: Response, what: string): Promise<T> {
  const text = await response.text();
  if (!response.ok) throw new Error(`${what} answered ${response.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}

// The admin API refuses bodies over 64 KiB; one imported identity is about 220 bytes.
const batchSize = 250;

/**
 * Creates identities `from` … `to - 1` through `PATCH /admin/identities`, each with the same
 * imported argon2id hash (no hashing while seeding). Returns their ids in order.
 */
export async function seedIdentities(
  from: number,
  to: number,
  hash: string,
  adminUrl: string = urls.identityAdmin,
): Promise<string[]> {
  const batches: number[][] = [];
  for (let start = from; start < to; start += batchSize) {
    batches.push(Array.from({ length: Math.min(batchSize, to - start) }, (_, i) => start + i));
  }
  const ids: string[][] = [];
  const send = async (batch: number[], slot: number) => {
    const body = {
      identities: batch.map((index) => ({
        create: {
          schema_id: "default",
          traits: { email: emailOf(index) },
          credentials: { password: { config: { hashed_password: hash } } },
        },
      })),
    };
    const response = await fetch(`${adminUrl}/admin/identities`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = await json<{ identities: { action: string; identity?: string }[] }>(
      response,
      "PATCH /admin/identities",
    );
    // After a retried batch, identities created by the lost attempt clash (409): look them up.
    ids[slot] = await Promise.all(
      answer.identities.map(
        async (r, i) => r.identity ?? (await idOf(adminUrl, emailOf(batch[i] ?? -1))),
      ),
    );
  };
  const sendWithRetry = async (batch: number[], slot: number) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await send(batch, slot);
      } catch (error) {
        if (attempt === 3 || !(error instanceof TypeError)) throw error;
        console.log(`        seeding: ${error.message}; retrying the batch`);
      }
    }
  };
  // Two batches in flight: the server writes one while the next is encoded and sent.
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const slot = next++;
      await sendWithRetry(batches[slot] ?? [], slot);
    }
  };
  await Promise.all([worker(), worker()]);
  return ids.flat();
}

async function idOf(adminUrl: string, email: string): Promise<string> {
  const found = await json<{ id: string }[]>(
    await fetch(`${adminUrl}/admin/identities?credentials_identifier=${encodeURIComponent(email)}`),
    "GET /admin/identities",
  );
  const id = found[0]?.id;
  if (!id) throw new Error(`seeding: ${email} was refused`);
  return id;
}

export type Cookies = Map<string, string>;

export const cookieHeader = (cookies: Cookies): string =>
  [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");

function keepCookies(response: Response, cookies: Cookies): void {
  for (const cookie of response.headers.getSetCookie()) {
    const [pair = ""] = cookie.split(";");
    const separator = pair.indexOf("=");
    cookies.set(pair.slice(0, separator), pair.slice(separator + 1));
  }
}

interface BrowserFlow {
  id: string;
  ui: { nodes: { attributes: { name?: string; value?: unknown } }[] };
}

/**
 * A browser sign-in through the portal's /api/kratos proxy (as the portal's own pages do), or
 * `base` (the identity server itself); returns the cookies: the session cookie and the CSRF cookie.
 */
export async function browserLogin(
  identifier: string,
  base = `${urls.portal}/api/kratos`,
  password = benchPassword,
): Promise<Cookies> {
  const cookies: Cookies = new Map();
  const created = await fetch(`${base}/self-service/login/browser`, {
    headers: { accept: "application/json" },
  });
  keepCookies(created, cookies);
  const flow = await json<BrowserFlow>(created, "GET /self-service/login/browser");
  const csrf = flow.ui.nodes.find((n) => n.attributes.name === "csrf_token")?.attributes.value;
  const submitted = await fetch(`${base}/self-service/login?flow=${flow.id}`, {
    method: "POST",
    headers: {
      accept: "application/json",
      "content-type": "application/json",
      cookie: cookieHeader(cookies),
    },
    body: JSON.stringify({
      method: "password",
      identifier,
      password,
      csrf_token: csrf,
    }),
  });
  keepCookies(submitted, cookies);
  await json<unknown>(submitted, "POST /self-service/login (browser)");
  if (!cookies.has("ory_kratos_session"))
    throw new Error("the browser login set no session cookie");
  return cookies;
}

export interface OAuth2Client {
  client_id: string;
  client_secret: string;
}

/** A confidential client for client_credentials, created through the OAuth2 admin API. */
export async function createClient(): Promise<OAuth2Client> {
  return json<OAuth2Client>(
    await fetch(`${urls.oauth2Admin}/admin/clients`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "bench machine client",
        grant_types: ["client_credentials"],
        scope: "api:read",
        token_endpoint_auth_method: "client_secret_basic",
      }),
    }),
    "POST /admin/clients",
  );
}

export const basicAuth = (client: OAuth2Client): string =>
  `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString("base64")}`;

export const tokenRequestBody = "grant_type=client_credentials&scope=api%3Aread";

export async function clientCredentialsToken(client: OAuth2Client): Promise<string> {
  const answer = await json<{ access_token: string }>(
    await fetch(`${urls.oauth2Public}/oauth2/token`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: basicAuth(client),
      },
      body: tokenRequestBody,
    }),
    "POST /oauth2/token",
  );
  return answer.access_token;
}
