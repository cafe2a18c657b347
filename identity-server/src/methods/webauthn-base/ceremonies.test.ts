import { describe, expect, it } from "vitest";
import { SoftwareAuthenticator } from "../../test-support/software-authenticator.ts";
import {
  createAuthenticationOptions,
  createRegistrationOptions,
  parseAuthenticationResponse,
  parseRegistrationResponse,
  verifyAuthentication,
  verifyRegistration,
} from "./ceremonies.ts";
import { findRecord, findRecordByHex, recordHexId } from "./credential-records.ts";
import type { WebAuthnConfig } from "./webauthn-config.ts";
import { WebAuthnRefused } from "./webauthn-refused.ts";

const config: WebAuthnConfig = {
  rpId: "portal.example",
  rpOrigins: ["https://portal.example"],
  rpDisplayName: "Portal",
  passwordless: false,
};
const now = new Date("2026-03-01T12:00:00.400Z");

async function registered(authenticator = new SoftwareAuthenticator("https://portal.example")) {
  const options = await createRegistrationOptions(config, {
    userHandle: new TextEncoder().encode("a".repeat(64)),
    userName: "ada@example.com",
    residentKey: "required",
    exclude: [],
  });
  const answer = parseRegistrationResponse(JSON.stringify(authenticator.register(options)));
  const { record } = await verifyRegistration(config, answer, options.challenge, {
    passwordless: true,
    now,
  });
  return { authenticator, record };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebAuthnRefused);
  expect((error as WebAuthnRefused).messages[0]?.message.id).toBe(4000043);
  return (error as WebAuthnRefused).reason;
}

describe("WebAuthn ceremonies", () => {
  it("offer ES256, RS256 and EdDSA, attestation none and user verification preferred", async () => {
    const options = await createRegistrationOptions(config, {
      userHandle: new Uint8Array([1, 2, 3]),
      userName: "ada",
      residentKey: "required",
      exclude: [],
    });
    expect(options.rp).toEqual({ name: "Portal", id: "portal.example" });
    expect(options.user.id).toBe("AQID");
    expect(options.attestation).toBe("none");
    expect(options.pubKeyCredParams.map((p) => p.alg)).toEqual([-8, -7, -257]);
    expect(options.authenticatorSelection).toMatchObject({
      residentKey: "required",
      requireResidentKey: true,
      userVerification: "preferred",
    });
    const request = await createAuthenticationOptions(config);
    expect(request).toMatchObject({ rpId: "portal.example", userVerification: "preferred" });
    expect(request.allowCredentials).toEqual([]);
  });

  it("store a registered authenticator as Kratos does and sign in with it", async () => {
    const { authenticator, record } = await registered();
    expect(record).toMatchObject({
      attestation_type: "none",
      authenticator: { aaguid: "AAAAAAAAAAAAAAAAAAAAAA==", sign_count: 0, clone_warning: false },
      display_name: "",
      added_at: "2026-03-01T12:00:00Z",
      is_passwordless: true,
      transport: ["internal"],
    });
    // Standard base64 with padding, as Go encodes []byte.
    expect(record.id).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(record.id, "base64")).toHaveLength(32);
    expect(findRecordByHex([record], recordHexId(record))).toBe(record);

    const options = await createAuthenticationOptions(config, [record]);
    const answer = parseAuthenticationResponse(JSON.stringify(authenticator.authenticate(options)));
    expect(findRecord([record], answer.id)).toBe(record);
    const updated = await verifyAuthentication(config, answer, options.challenge, record);
    expect(updated.authenticator.sign_count).toBe(1);
  });

  it("refuse an answer from another origin", async () => {
    const { authenticator, record } = await registered();
    const options = await createAuthenticationOptions(config);
    const answer = authenticator.authenticate(options, { origin: "https://evil.example" });
    expect(await refusal(verifyAuthentication(config, answer, options.challenge, record))).toMatch(
      /origin/i,
    );
    const creation = await createRegistrationOptions(config, {
      userHandle: new Uint8Array([1]),
      userName: "ada",
      residentKey: "required",
      exclude: [],
    });
    const created = authenticator.register(creation, { origin: "https://evil.example" });
    await refusal(
      verifyRegistration(config, created, creation.challenge, { passwordless: true, now }),
    );
  });

  it("refuse a counter that does not increase, and an answer to another challenge", async () => {
    const { authenticator, record } = await registered();
    const first = await createAuthenticationOptions(config);
    const answer = authenticator.authenticate(first, { counter: 5 });
    const updated = await verifyAuthentication(config, answer, first.challenge, record);
    expect(updated.authenticator.sign_count).toBe(5);

    const second = await createAuthenticationOptions(config);
    const regressed = authenticator.authenticate(second, { counter: 5 });
    expect(
      await refusal(verifyAuthentication(config, regressed, second.challenge, updated)),
    ).toMatch(/counter/i);
    // The first answer again, for a new challenge: the signature covers the old one.
    await refusal(verifyAuthentication(config, answer, second.challenge, record));
  });

  it("refuse malformed answers as validation errors, not exceptions", async () => {
    expect(() => parseAuthenticationResponse("not json")).toThrow(WebAuthnRefused);
    expect(() => parseAuthenticationResponse('{"id":"x"}')).toThrow(WebAuthnRefused);
    expect(() => parseRegistrationResponse("[]")).toThrow(WebAuthnRefused);
    const { record } = await registered();
    const options = await createAuthenticationOptions(config);
    const garbage = parseAuthenticationResponse(
      JSON.stringify({
        id: "AAAA",
        rawId: "AAAA",
        type: "public-key",
        response: { clientDataJSON: "AAAA", authenticatorData: "AAAA", signature: "AAAA" },
      }),
    );
    await refusal(verifyAuthentication(config, garbage, options.challenge, record));
  });
});
