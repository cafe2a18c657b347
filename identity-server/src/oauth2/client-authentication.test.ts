import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { verifySecret } from "./crypto/secret-hash.ts";
import {
  startOAuth2TestService,
  type OAuth2TestService,
} from "./test-support/oauth2-test-service.ts";
import { parsePrometheusText, sampleValue } from "../test-support/prometheus-text.ts";
import { introspect, registerClient, type RegisteredClient } from "./test-support/portal-role.ts";

// Client authentication at the token and revocation endpoints, where fosite (Hydra) is stricter
// than oidc-provider: the registered method only, a budget of hashed secret checks per client and
// per IP, and Hydra's answer to revoking another client's token.

// Counts the scrypt verifications the server runs (it runs in this process).
vi.mock("./crypto/secret-hash.ts", async (importOriginal) => {
  const actual = await importOriginal<typeof import("./crypto/secret-hash.ts")>();
  return { ...actual, verifySecret: vi.fn(actual.verifySecret) };
});
const hashedChecks = () => vi.mocked(verifySecret).mock.calls.length;

interface Credentials {
  client: RegisteredClient;
  secret?: string;
  via: "basic" | "post";
  /** Sent as X-Forwarded-For (believed: the test connects over loopback). */
  forwardedFor?: string;
}

async function call(
  service: OAuth2TestService,
  path: "/oauth2/token" | "/oauth2/revoke",
  form: Record<string, string>,
  { client, secret = client.client_secret ?? "", via, forwardedFor }: Credentials,
): Promise<{ status: number; headers: Headers; body: Record<string, unknown> | undefined }> {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (forwardedFor) headers["x-forwarded-for"] = forwardedFor;
  const params = new URLSearchParams(form);
  if (via === "basic") {
    const pair = `${encodeURIComponent(client.client_id)}:${encodeURIComponent(secret)}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString("base64")}`;
  } else {
    params.set("client_id", client.client_id);
    params.set("client_secret", secret);
  }
  const response = await fetch(`${service.issuer}${path}`, {
    method: "POST",
    headers,
    body: params.toString(),
  });
  const text = await response.text();
  const body = text === "" ? undefined : (JSON.parse(text) as Record<string, unknown>);
  return { status: response.status, headers: response.headers, body };
}

const grant = { grant_type: "client_credentials" };

function machineClient(service: OAuth2TestService, method = "client_secret_basic") {
  return registerClient(service, {
    grant_types: ["client_credentials"],
    scope: "api",
    token_endpoint_auth_method: method,
  });
}

describe("the registered authentication method", () => {
  let service: OAuth2TestService;
  beforeAll(async () => {
    service = await startOAuth2TestService();
  });
  afterAll(() => service.stop());

  it("is the only one accepted, with the right secret too (401 invalid_client, as fosite)", async () => {
    const basicClient = await machineClient(service, "client_secret_basic");
    const postClient = await machineClient(service, "client_secret_post");

    const basicAsPost = await call(service, "/oauth2/token", grant, {
      client: basicClient,
      via: "post",
    });
    expect(basicAsPost.status).toBe(401);
    expect(basicAsPost.body?.error).toBe("invalid_client");
    expect(basicAsPost.body?.error_description).toMatch(
      /registered for client_secret_basic, but client_secret_post was used/,
    );
    const postAsBasic = await call(service, "/oauth2/token", grant, {
      client: postClient,
      via: "basic",
    });
    expect(postAsBasic.status).toBe(401);
    expect(postAsBasic.body?.error).toBe("invalid_client");
    expect(postAsBasic.body?.error_description).toMatch(
      /registered for client_secret_post, but client_secret_basic was used/,
    );

    expect(
      (await call(service, "/oauth2/token", grant, { client: basicClient, via: "basic" })).status,
    ).toBe(200);
    expect(
      (await call(service, "/oauth2/token", grant, { client: postClient, via: "post" })).status,
    ).toBe(200);
  });

  it("is checked before the secret is hashed", async () => {
    const basicClient = await machineClient(service);
    const before = hashedChecks();
    const answer = await call(service, "/oauth2/token", grant, {
      client: basicClient,
      secret: "a-wrong-guess",
      via: "post",
    });
    expect(answer.status).toBe(401);
    expect(hashedChecks()).toBe(before);
  });

  it("applies to the revocation endpoint too", async () => {
    const basicClient = await machineClient(service);
    const answer = await call(
      service,
      "/oauth2/revoke",
      { token: "anything" },
      {
        client: basicClient,
        via: "post",
      },
    );
    expect(answer.status).toBe(401);
    expect(answer.body?.error).toBe("invalid_client");
  });
});

describe("revoking a token of another client", () => {
  let service: OAuth2TestService;
  beforeAll(async () => {
    service = await startOAuth2TestService();
  });
  afterAll(() => service.stop());

  it("answers Hydra's empty 200 with no-store and leaves the token alive", async () => {
    const owner = await machineClient(service);
    const other = await machineClient(service);
    const issued = await call(service, "/oauth2/token", grant, { client: owner, via: "basic" });
    const token = String(issued.body?.access_token);

    const refused = await call(
      service,
      "/oauth2/revoke",
      { token },
      { client: other, via: "basic" },
    );
    expect(refused.status).toBe(200);
    expect(refused.body).toBeUndefined();
    expect(refused.headers.get("cache-control")).toBe("no-store");
    expect(refused.headers.get("pragma")).toBe("no-cache");
    expect(await introspect(service, token)).toMatchObject({ active: true });

    const revoked = await call(
      service,
      "/oauth2/revoke",
      { token },
      { client: owner, via: "basic" },
    );
    expect(revoked.status).toBe(200);
    expect(revoked.headers.get("pragma")).toBe("no-cache");
    expect(await introspect(service, token)).toEqual({ active: false });
  });
});

/** identity_rate_limit_refusals_total{limit="client_auth"} as the admin listener reports it. */
async function clientAuthRefusals(service: OAuth2TestService): Promise<number> {
  const text = await (await fetch(`${service.adminUrl}/admin/metrics/prometheus`)).text();
  return sampleValue(parsePrometheusText(text), "identity_rate_limit_refusals_total", {
    limit: "client_auth",
  });
}

describe("the budget of hashed secret checks per client", () => {
  let service: OAuth2TestService;
  beforeAll(async () => {
    service = await startOAuth2TestService({
      IDENTITY_RATE_LIMIT_CLIENT_AUTH_PER_CLIENT: "3",
      IDENTITY_RATE_LIMIT_CLIENT_AUTH_PER_IP: "0",
      IDENTITY_RATE_LIMIT_CLIENT_AUTH_WINDOW: "10m",
    });
  });
  afterAll(() => service.stop());

  it("refuses further guesses with 429 and Retry-After, without hashing", async () => {
    const client = await machineClient(service);
    const wrong = { client, secret: "a-wrong-guess", via: "basic" } as const;
    for (let guess = 0; guess < 3; guess++) {
      const answer = await call(service, "/oauth2/token", grant, wrong);
      expect(answer.status).toBe(401);
      expect(answer.body?.error).toBe("invalid_client");
    }

    const before = hashedChecks();
    const refusalsBefore = await clientAuthRefusals(service);
    const limited = await call(service, "/oauth2/token", grant, wrong);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      error: "temporarily_unavailable",
      error_description: expect.stringMatching(/too many failed client authentications/) as unknown,
    });
    const retryAfter = Number(limited.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(500);
    expect(retryAfter).toBeLessThanOrEqual(600);
    // The right secret cannot be told from a guess without hashing it: refused as well.
    const right = await call(service, "/oauth2/token", grant, { client, via: "basic" });
    expect(right.status).toBe(429);
    // Both refusals are counted on the admin listener's metrics.
    expect((await clientAuthRefusals(service)) - refusalsBefore).toBe(2);
    const revocation = await call(service, "/oauth2/revoke", { token: "x" }, wrong);
    expect(revocation.status).toBe(429);
    expect(hashedChecks()).toBe(before);

    // Other clients are not affected.
    const other = await machineClient(service);
    expect(
      (await call(service, "/oauth2/token", grant, { client: other, via: "basic" })).status,
    ).toBe(200);

    // Once the window has passed the client authenticates again.
    service.advanceClock(10 * 60_000 + 1000);
    expect((await call(service, "/oauth2/token", grant, { client, via: "basic" })).status).toBe(
      200,
    );
  });

  it("still lets a secret verified in the last minutes through", async () => {
    const client = await machineClient(service);
    expect((await call(service, "/oauth2/token", grant, { client, via: "basic" })).status).toBe(
      200,
    );
    // From another address: this one is now known and not held to the client's budget.
    const wrong = {
      client,
      secret: "a-wrong-guess",
      via: "basic",
      forwardedFor: "203.0.113.9",
    } as const;
    for (let guess = 0; guess < 2; guess++) {
      expect((await call(service, "/oauth2/token", grant, wrong)).status).toBe(401);
    }
    expect((await call(service, "/oauth2/token", grant, wrong)).status).toBe(429);
    // Remembered (crypto/verified-secrets.ts): no hash, so the limit has nothing to protect.
    expect((await call(service, "/oauth2/token", grant, { client, via: "basic" })).status).toBe(
      200,
    );
  });

  it("counts parallel guesses before hashing them", async () => {
    const client = await machineClient(service);
    const before = hashedChecks();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        call(service, "/oauth2/token", grant, { client, secret: "guess", via: "basic" }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([
      401, 401, 401, 429, 429, 429, 429, 429,
    ]);
    expect(hashedChecks() - before).toBe(3);
  });
});

describe("guesses at a public client id from elsewhere (the defaults: 20 per client, 50 per IP)", () => {
  let service: OAuth2TestService;
  beforeAll(async () => {
    service = await startOAuth2TestService();
  });
  afterAll(() => service.stop());

  it("do not lock out an address that authenticated as the client before", async () => {
    const client = await machineClient(service);
    const [attacker, owner, newcomer] = ["203.0.113.7", "198.51.100.20", "192.0.2.30"];
    const right = (forwardedFor: string) => ({ client, via: "basic", forwardedFor }) as const;
    expect((await call(service, "/oauth2/token", grant, right(owner))).status).toBe(200);
    // Long enough for the remembered verification to lapse: the next right secret is hashed.
    service.advanceClock(6 * 60_000);

    const statuses: number[] = [];
    for (let guess = 0; guess < 25; guess++) {
      const wrong = { ...right(attacker), secret: `guess-${guess}` };
      statuses.push((await call(service, "/oauth2/token", grant, wrong)).status);
    }
    // The owner's own first (hashed) success counted too: 19 guesses were left.
    expect(statuses).toEqual([...Array<number>(19).fill(401), ...Array<number>(6).fill(429)]);

    const before = hashedChecks();
    // An address never seen with this client shares the spent budget, right secret or not.
    const refused = await call(service, "/oauth2/token", grant, right(newcomer));
    expect(refused.status).toBe(429);
    expect(refused.body?.error).toBe("temporarily_unavailable");
    expect(hashedChecks()).toBe(before);
    // The owner's address is not refused: its secret is hashed and it gets a token.
    const ownerAgain = await call(service, "/oauth2/token", grant, right(owner));
    expect(ownerAgain.status).toBe(200);
    expect(ownerAgain.body?.access_token).toEqual(expect.any(String));
    expect(hashedChecks() - before).toBe(1);
    // Its wrong secrets are not refused by the client's budget either (they count per IP).
    const ownerTypo = await call(service, "/oauth2/token", grant, {
      ...right(owner),
      secret: "a-typo",
    });
    expect(ownerTypo.status).toBe(401);
    // Guesses from elsewhere still are.
    const more = { ...right(newcomer), secret: "another-guess" };
    expect((await call(service, "/oauth2/token", grant, more)).status).toBe(429);

    // The owner's address stays known for a day after its last success, not after its first.
    service.advanceClock(23 * 60 * 60_000);
    expect((await call(service, "/oauth2/token", grant, right(owner))).status).toBe(200);
    service.advanceClock(2 * 60 * 60_000);
    for (let guess = 0; guess < 20; guess++) {
      const wrong = { ...right(attacker), secret: `late-guess-${guess}` };
      expect((await call(service, "/oauth2/token", grant, wrong)).status).toBe(401);
    }
    service.advanceClock(6 * 60_000);
    expect((await call(service, "/oauth2/token", grant, right(newcomer))).status).toBe(429);
    expect((await call(service, "/oauth2/token", grant, right(owner))).status).toBe(200);

    // A day without success and it is a stranger again.
    service.advanceClock(24 * 60 * 60_000);
    for (let guess = 0; guess < 20; guess++) {
      const wrong = { ...right(attacker), secret: `next-day-guess-${guess}` };
      expect((await call(service, "/oauth2/token", grant, wrong)).status).toBe(401);
    }
    expect((await call(service, "/oauth2/token", grant, right(owner))).status).toBe(429);
  });
});

describe("the budget of hashed secret checks per IP", () => {
  let service: OAuth2TestService;
  beforeAll(async () => {
    service = await startOAuth2TestService({
      IDENTITY_RATE_LIMIT_CLIENT_AUTH_PER_CLIENT: "0",
      IDENTITY_RATE_LIMIT_CLIENT_AUTH_PER_IP: "3",
    });
  });
  afterAll(() => service.stop());

  it("spans clients and is keyed by the address the proxy saw", async () => {
    const attacker = "203.0.113.7";
    for (let guess = 0; guess < 3; guess++) {
      const client = await machineClient(service);
      const answer = await call(service, "/oauth2/token", grant, {
        client,
        secret: "guess",
        via: "basic",
        forwardedFor: attacker,
      });
      expect(answer.status).toBe(401);
    }
    const fresh = await machineClient(service);
    const guess = { client: fresh, secret: "guess", via: "basic" } as const;
    expect(
      (await call(service, "/oauth2/token", grant, { ...guess, forwardedFor: attacker })).status,
    ).toBe(429);
    // A forged entry in front of what the proxy appended changes nothing.
    const forged = `198.51.100.1, ${attacker}`;
    expect(
      (await call(service, "/oauth2/token", grant, { ...guess, forwardedFor: forged })).status,
    ).toBe(429);
    // Another address still gets its own answer.
    expect(
      (await call(service, "/oauth2/token", grant, { ...guess, forwardedFor: "203.0.113.8" }))
        .status,
    ).toBe(401);
  });
});

describe("with both limits off (0)", () => {
  let service: OAuth2TestService;
  beforeAll(async () => {
    service = await startOAuth2TestService({
      IDENTITY_RATE_LIMIT_CLIENT_AUTH_PER_CLIENT: "0",
      IDENTITY_RATE_LIMIT_CLIENT_AUTH_PER_IP: "0",
    });
  });
  afterAll(() => service.stop());

  it("every wrong secret is hashed and answered 401", async () => {
    const client = await machineClient(service);
    const before = hashedChecks();
    for (let guess = 0; guess < 4; guess++) {
      const answer = await call(service, "/oauth2/token", grant, {
        client,
        secret: "guess",
        via: "basic",
      });
      expect(answer.status).toBe(401);
    }
    expect(hashedChecks() - before).toBe(4);
  });
});
