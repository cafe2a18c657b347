import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";

// A WebAuthn authenticator in software for server tests: an ES256 key per credential (node:crypto),
// attestation `none`, and answers in the JSON @simplewebauthn/browser's startRegistration and
// startAuthentication produce. The attestation object and the COSE key are encoded with the CBOR
// encoder @simplewebauthn/server exports (`isoCBOR` from its helpers), nothing by hand. Origin,
// counter, user handle and a new credential's id can be forced per call, so tests can forge a wrong
// origin, a counter that goes back, a credential id registered already, a key labelled with the
// wrong algorithm, or replay an answer.

interface SoftwareCredential {
  id: Buffer;
  privateKey: KeyObject;
  rpId: string;
  userHandle: string;
  counter: number;
}

const flagUserPresent = 0x01;
const flagUserVerified = 0x04;
const flagAttestedData = 0x40;

const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string): Buffer => createHash("sha256").update(data).digest();

/** The options as a node value carries them: bare, or wrapped as `{"publicKey": …}` (Kratos). */
type Wrapped<T> = T | { publicKey: T };

function unwrap<T>(options: Wrapped<T>): T {
  return typeof options === "object" && options !== null && "publicKey" in options
    ? options.publicKey
    : options;
}

function coseKey(publicKey: KeyObject, alg = -7): Uint8Array {
  const jwk = publicKey.export({ format: "jwk" });
  const x = new Uint8Array(Buffer.from(jwk.x ?? "", "base64url"));
  const y = new Uint8Array(Buffer.from(jwk.y ?? "", "base64url"));
  // kty EC2 (2), alg ES256 (-7) unless a test forges another label, crv P-256 (1), x, y.
  const key = new Map<number, number | Uint8Array>([
    [1, 2],
    [3, alg],
    [-1, 1],
    [-2, x],
    [-3, y],
  ]);
  return isoCBOR.encode(key);
}

function counterBytes(counter: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(counter >>> 0);
  return bytes;
}

export class SoftwareAuthenticator {
  /** The origin the "browser" puts into clientDataJSON. */
  origin: string;
  /** Whether the user is verified (PIN, biometrics) in the answers. */
  userVerified = true;
  readonly credentials: SoftwareCredential[] = [];

  constructor(origin: string) {
    this.origin = origin;
  }

  private clientData(type: string, challenge: string, origin: string | undefined): Buffer {
    return Buffer.from(
      JSON.stringify({ type, challenge, origin: origin ?? this.origin, crossOrigin: false }),
    );
  }

  private flags(extra = 0): number {
    return flagUserPresent | (this.userVerified ? flagUserVerified : 0) | extra;
  }

  /** navigator.credentials.create(): a new ES256 credential for the options' RP and user. */
  register(
    options: Wrapped<PublicKeyCredentialCreationOptionsJSON>,
    forced: { origin?: string; credentialId?: Buffer; alg?: number } = {},
  ): RegistrationResponseJSON {
    const o = unwrap(options);
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const rpId = o.rp.id ?? new URL(this.origin).hostname;
    const credential: SoftwareCredential = {
      id: forced.credentialId ?? randomBytes(32),
      privateKey,
      rpId,
      userHandle: o.user.id,
      counter: 0,
    };
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([this.flags(flagAttestedData)]),
      counterBytes(credential.counter),
      Buffer.alloc(16), // AAGUID: zeros, as attestation `none` authenticators report
      idLength,
      credential.id,
      coseKey(publicKey, forced.alg),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<never, never> | Uint8Array>([
        ["fmt", "none"],
        ["attStmt", new Map<never, never>()],
        ["authData", new Uint8Array(authData)],
      ]),
    );
    this.credentials.push(credential);
    const id = b64url(credential.id);
    return {
      id,
      rawId: id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(this.clientData("webauthn.create", o.challenge, forced.origin)),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: { credProps: { rk: true } },
      authenticatorAttachment: "platform",
    };
  }

  /**
   * navigator.credentials.get(): an assertion by the newest credential the options allow (any of
   * the RP's when they list none, as for a discoverable passkey). The counter goes up by one
   * unless `forced.counter` says otherwise.
   */
  authenticate(
    options: Wrapped<PublicKeyCredentialRequestOptionsJSON>,
    forced: { origin?: string; counter?: number; userHandle?: string } = {},
  ): AuthenticationResponseJSON {
    const o = unwrap(options);
    const allowed = new Set((o.allowCredentials ?? []).map((c) => c.id));
    const credential = this.credentials.findLast(
      (c) =>
        (o.rpId === undefined || c.rpId === o.rpId) &&
        (allowed.size === 0 || allowed.has(b64url(c.id))),
    );
    if (!credential) throw new Error("the software authenticator holds no matching credential");
    credential.counter = forced.counter ?? credential.counter + 1;
    const authData = Buffer.concat([
      sha256(credential.rpId),
      Buffer.from([this.flags()]),
      counterBytes(credential.counter),
    ]);
    const clientData = this.clientData("webauthn.get", o.challenge, forced.origin);
    const signature = sign(
      "sha256",
      Buffer.concat([authData, sha256(clientData)]),
      credential.privateKey,
    );
    const id = b64url(credential.id);
    return {
      id,
      rawId: id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: forced.userHandle ?? credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }
}
