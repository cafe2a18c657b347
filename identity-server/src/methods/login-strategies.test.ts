import type { FastifyReply, FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import type { SecondFactorConfig } from "../config/second-factor-config.ts";
import type { ServerContext } from "../context.ts";
import type { Flow } from "../selfservice/flow.ts";
import { FlowBody } from "../http/flow-body.ts";
import { HerodotError } from "../http/errors.ts";
import type { Credential, Identity } from "../identity/identity.ts";
import { availableAal, hasSecondFactor } from "../identity/second-factors.ts";
import { ValidationError } from "../ui/validation-error.ts";
import { loginStrategies, loginStrategiesFor } from "./login-strategies.ts";
import type { LoginStep } from "./login-strategy.ts";
import { newTotpKey } from "./totp/totp-key.ts";

// The strategies work on plain values: no server, no database, no HTTP request is needed to say
// which one is responsible for a submission, what an identity can use, or how a form is checked.

const config = { codeMfaEnabled: true } as SecondFactorConfig;
const at = new Date("2026-01-01T00:00:00Z");

function credential(type: string, config: Record<string, unknown>): Credential {
  return { id: type, type, identifiers: [], config, version: 0, createdAt: at, updatedAt: at };
}

function identityWith(...credentials: Credential[]): Identity {
  return {
    id: "0b0e2d4c-5e54-4bd4-9c3c-6ad1f0c1a001",
    schemaId: "default",
    state: "active",
    stateChangedAt: undefined,
    traits: { email: "ada@example.org" },
    verifiableAddresses: [
      {
        id: "a",
        value: "ada@example.org",
        verified: true,
        via: "email",
        status: "completed",
        verifiedAt: at,
        createdAt: at,
        updatedAt: at,
      },
    ],
    recoveryAddresses: [],
    credentials,
    metadataPublic: null,
    metadataAdmin: null,
    createdAt: at,
    updatedAt: at,
  };
}

const password = credential("password", { hashed_password: "x" });
const totp = credential("totp", { totp_url: newTotpKey("Example", "ada").url });
const lookup = credential("lookup_secret", { recovery_codes: [{ code: "h", used_at: null }] });
const code = credential("code", { addresses: [{ address: "ada@example.org", channel: "email" }] });

function responsibleFor(aal: "aal1" | "aal2", values: Record<string, unknown>) {
  return loginStrategiesFor(aal).find((s) => s.responsible(FlowBody.of(values)))?.id;
}

describe("the login strategy registry", () => {
  it("asks the strategies in Kratos' order, password first and the second factors after", () => {
    expect(loginStrategies().map((s) => [s.id, s.aal, s.group])).toEqual([
      ["password", "aal1", "password"],
      ["code", "aal2", "code"],
      ["passkey", "aal1", "passkey"],
      ["totp", "aal2", "totp"],
      ["webauthn", "aal1", "webauthn"],
      ["webauthn", "aal2", "webauthn"],
      ["lookup_secret", "aal2", "lookup_secret"],
    ]);
  });

  it("hands a submission to the first strategy responsible for it", () => {
    expect(responsibleFor("aal1", { method: "password" })).toBe("password");
    expect(responsibleFor("aal1", { method: "totp" })).toBeUndefined();
    expect(responsibleFor("aal2", { method: "totp", totp_code: "123456" })).toBe("totp");
    expect(responsibleFor("aal2", { method: "lookup_secret" })).toBe("lookup_secret");
    // An address makes the code strategy responsible whatever the method says, as in Kratos.
    expect(responsibleFor("aal2", { method: "totp", address: "ada@example.org" })).toBe("code");
    expect(responsibleFor("aal2", { method: "password" })).toBeUndefined();
  });

  it("derives an identity's second factors and available AAL from the strategies", () => {
    expect(availableAal(identityWith(), config)).toBe("aal0");
    expect(availableAal(identityWith(password), config)).toBe("aal1");
    for (const factor of [totp, lookup, code]) {
      expect(hasSecondFactor(identityWith(password, factor), config)).toBe(true);
      expect(availableAal(identityWith(password, factor), config)).toBe("aal2");
    }
    // Codes count only while the configuration offers them.
    const codesOff = { codeMfaEnabled: false } as SecondFactorConfig;
    expect(hasSecondFactor(identityWith(password, code), codesOff)).toBe(false);
    // Used-up or malformed credentials are no second factor.
    const badTotp = credential("totp", { totp_url: "not a key" });
    expect(
      hasSecondFactor(identityWith(password, badTotp, credential("lookup_secret", {})), config),
    ).toBe(false);
  });
});

describe("a login step", () => {
  function apiStep(values: Record<string, unknown>, identity: Identity): LoginStep {
    const flow = { type: "api", ui: { action: "", method: "POST", nodes: [] } } as unknown as Flow;
    // A native app's submission that carries an Origin header fails the CSRF check (400).
    const request = { headers: { origin: "https://elsewhere.example" }, cookies: {} };
    return {
      ctx: {} as ServerContext,
      request: request as unknown as FastifyRequest,
      reply: {} as FastifyReply,
      flow,
      body: FlowBody.of(values),
      identity,
    };
  }

  it("reports a missing required value before checking the CSRF token, then checks it", async () => {
    const identity = identityWith(password, totp);
    const strategy = loginStrategiesFor("aal2").find((s) => s.id === "totp");
    if (!strategy) throw new Error("no totp strategy");

    const missing = await strategy
      .submit(apiStep({ method: "totp" }, identity))
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ValidationError);
    expect((missing as ValidationError).messages).toMatchObject([
      { field: "totp_code", message: { id: 4000002 } },
    ]);

    const step = apiStep({ method: "totp", totp_code: "123456" }, identity);
    const csrf = await strategy.submit(step).catch((e: unknown) => e);
    expect(csrf).toBeInstanceOf(HerodotError);
    expect((csrf as HerodotError).code).toBe(400);
    expect((csrf as HerodotError).reason).toMatch(/"Origin" key/);
  });

  it("fails on a value of the wrong type in the strategy's payload, as the decoder does", () => {
    const identity = identityWith(password, code);
    const strategy = loginStrategiesFor("aal2").find((s) => s.id === "code");
    if (!strategy) throw new Error("no code strategy");
    const malformed = FlowBody.of({ method: "code", transient_payload: "{not json" });
    let thrown: unknown;
    try {
      strategy.responsible(malformed);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(HerodotError);
    expect((thrown as HerodotError).reason).toMatch(/invalid JSON in transient_payload/);
    expect(strategy.configured(identity, config)).toBe(true);
  });
});
