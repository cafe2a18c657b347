import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { cose, decodeCredentialPublicKey } from "@simplewebauthn/server/helpers";
import { z } from "zod";
import {
  addedAtOf,
  toStoredBase64,
  toWireBase64url,
  type WebAuthnCredentialRecord,
} from "./credential-records.ts";
import type { WebAuthnConfig } from "./webauthn-config.ts";
import { WebAuthnRefused } from "./webauthn-refused.ts";

// Thin wrappers around @simplewebauthn/server with this server's policy in one place: user
// verification preferred (not required), attestation `none`, ES256, RS256 and EdDSA, the RP id
// and origins from the configuration. Every failure of an answer is a WebAuthnRefused (a
// validation error), never an exception that would answer 500.

/** COSE algorithm ids: EdDSA, ES256, RS256 (the library's defaults, without post-quantum ones). */
const supportedAlgorithmIDs = [-8, -7, -257];

/** The COSE key type each supported algorithm signs with: EdDSA OKP, ES256 EC2, RS256 RSA. */
const keyTypeOf = new Map<number, number>([
  [-8, cose.COSEKTY.OKP],
  [-7, cose.COSEKTY.EC2],
  [-257, cose.COSEKTY.RSA],
]);

/**
 * A public key whose algorithm does not fit its key type (an EC2 key labelled RS256) is refused:
 * the library checks the label against the allowed algorithms only, and the stored key would
 * then be verified by whatever its key type implies.
 */
function checkKeyType(publicKey: Uint8Array<ArrayBuffer>): void {
  let key: ReturnType<typeof decodeCredentialPublicKey>;
  try {
    key = decodeCredentialPublicKey(publicKey);
  } catch (error) {
    throw refusal(error);
  }
  const alg = key.get(cose.COSEKEYS.alg);
  if (alg === undefined || keyTypeOf.get(alg) !== key.get(cose.COSEKEYS.kty)) {
    throw new WebAuthnRefused("the public key's type does not match its algorithm");
  }
}

/** How long the browser waits for the user (go-webauthn's and the library's default, 60 s). */
const ceremonyTimeoutMs = 60_000;

export interface RegistrationRequest {
  /** The WebAuthn user handle (passkeys: Kratos' 64 random characters). */
  userHandle: Uint8Array;
  /** What the authenticator shows as the account's name. */
  userName: string;
  userDisplayName?: string;
  /** Passkeys need a discoverable credential ("required"); security keys need not. */
  residentKey: "required" | "preferred" | "discouraged";
  /** Authenticators already registered, so one is not registered twice. */
  exclude: readonly WebAuthnCredentialRecord[];
}

export function createRegistrationOptions(
  config: WebAuthnConfig,
  request: RegistrationRequest,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return generateRegistrationOptions({
    rpName: config.rpDisplayName,
    rpID: config.rpId,
    userName: request.userName,
    userID: request.userHandle as Uint8Array<ArrayBuffer>,
    userDisplayName: request.userDisplayName ?? request.userName,
    timeout: ceremonyTimeoutMs,
    attestationType: "none",
    excludeCredentials: request.exclude.map((record) => ({
      id: toWireBase64url(record.id),
      ...(record.transport ? { transports: record.transport } : {}),
    })),
    // A fresh object each time: the library writes requireResidentKey into it.
    authenticatorSelection: { residentKey: request.residentKey, userVerification: "preferred" },
    supportedAlgorithmIDs,
  });
}

/** Request options; without `allow` the browser offers any discoverable credential (passkeys). */
export function createAuthenticationOptions(
  config: WebAuthnConfig,
  allow: readonly WebAuthnCredentialRecord[] = [],
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return generateAuthenticationOptions({
    rpID: config.rpId,
    timeout: ceremonyTimeoutMs,
    userVerification: "preferred",
    allowCredentials: allow.map((record) => ({
      id: toWireBase64url(record.id),
      ...(record.transport ? { transports: record.transport } : {}),
    })),
  });
}

const base64url = z.string().regex(/^[A-Za-z0-9_-]+={0,2}$/);

const registrationResponseSchema = z.object({
  id: base64url,
  rawId: base64url,
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: base64url,
    attestationObject: base64url,
    transports: z.array(z.string()).optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.string().optional(),
});

const authenticationResponseSchema = z.object({
  id: base64url,
  rawId: base64url,
  type: z.literal("public-key"),
  response: z.object({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    userHandle: base64url.optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.string().optional(),
});

function parseJson<T>(schema: z.ZodType<T>, json: string, what: string): T {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new WebAuthnRefused(`the ${what} is not JSON`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new WebAuthnRefused(`the ${what} is malformed`);
  return parsed.data;
}

/** The browser's answer to create(), as @simplewebauthn/browser's startRegistration returns it. */
export function parseRegistrationResponse(json: string): RegistrationResponseJSON {
  return parseJson(
    registrationResponseSchema,
    json,
    "registration response",
  ) as RegistrationResponseJSON;
}

/** The browser's answer to get(), as @simplewebauthn/browser's startAuthentication returns it. */
export function parseAuthenticationResponse(json: string): AuthenticationResponseJSON {
  return parseJson(
    authenticationResponseSchema,
    json,
    "authentication response",
  ) as AuthenticationResponseJSON;
}

function refusal(error: unknown): WebAuthnRefused {
  return error instanceof WebAuthnRefused
    ? error
    : new WebAuthnRefused(error instanceof Error ? error.message : String(error));
}

export interface VerifiedRegistration {
  /** The new authenticator in Kratos' stored shape (display name left empty for the caller). */
  record: WebAuthnCredentialRecord;
}

/**
 * Verifies a create() answer against the challenge of the options and the configured origins and
 * RP id; the new authenticator comes back as the record Kratos would store.
 */
export async function verifyRegistration(
  config: WebAuthnConfig,
  response: RegistrationResponseJSON,
  expectedChallenge: string,
  options: { passwordless: boolean; now: Date },
): Promise<VerifiedRegistration> {
  let result: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    result = await verifyRegistrationResponse({
      response,
      expectedChallenge,
      expectedOrigin: config.rpOrigins,
      expectedRPID: config.rpId,
      requireUserVerification: false,
      supportedAlgorithmIDs,
    });
  } catch (error) {
    throw refusal(error);
  }
  if (!result.verified) throw new WebAuthnRefused("the registration did not verify");
  const info = result.registrationInfo;
  checkKeyType(info.credential.publicKey);
  const flags = info.credentialBackedUp;
  return {
    record: {
      id: toStoredBase64(info.credential.id),
      public_key: Buffer.from(info.credential.publicKey).toString("base64"),
      attestation_type: info.fmt,
      authenticator: {
        aaguid: Buffer.from(info.aaguid.replace(/-/g, ""), "hex").toString("base64"),
        sign_count: info.credential.counter,
        clone_warning: false,
      },
      display_name: "",
      added_at: addedAtOf(options.now),
      is_passwordless: options.passwordless,
      flags: {
        user_present: true,
        user_verified: info.userVerified,
        backup_eligible: info.credentialDeviceType === "multiDevice",
        backup_state: flags,
      },
      ...(info.credential.transports ? { transport: info.credential.transports } : {}),
    },
  };
}

/**
 * Verifies a get() answer for one stored authenticator: signature, challenge, origin, RP id and
 * the signature counter (one that does not increase, when either side is non-zero, is refused as
 * a possible clone). Returns the record with its new counter and backup state.
 */
export async function verifyAuthentication(
  config: WebAuthnConfig,
  response: AuthenticationResponseJSON,
  expectedChallenge: string,
  record: WebAuthnCredentialRecord,
): Promise<WebAuthnCredentialRecord> {
  let result: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    result = await verifyAuthenticationResponse({
      response,
      expectedChallenge,
      expectedOrigin: config.rpOrigins,
      expectedRPID: config.rpId,
      requireUserVerification: false,
      credential: {
        id: toWireBase64url(record.id),
        publicKey: new Uint8Array(Buffer.from(record.public_key, "base64")),
        counter: record.authenticator.sign_count,
        ...(record.transport ? { transports: record.transport } : {}),
      },
    });
  } catch (error) {
    throw refusal(error);
  }
  if (!result.verified) throw new WebAuthnRefused("the assertion did not verify");
  const info = result.authenticationInfo;
  return {
    ...record,
    authenticator: { ...record.authenticator, sign_count: info.newCounter },
    ...(record.flags ? { flags: { ...record.flags, backup_state: info.credentialBackedUp } } : {}),
  };
}
