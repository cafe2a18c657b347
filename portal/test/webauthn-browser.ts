import { vi } from "vitest";

/** Bytes as an ArrayBuffer, as the browser's credential objects hold them. */
function bytes(text: string): ArrayBuffer {
  return new TextEncoder().encode(text).buffer;
}

/** A credential as `navigator.credentials.get` resolves it (an assertion). */
export function assertion() {
  return {
    id: "Y3JlZA",
    rawId: bytes("cred"),
    type: "public-key",
    authenticatorAttachment: "platform",
    response: {
      authenticatorData: bytes("auth-data"),
      clientDataJSON: bytes('{"type":"webauthn.get"}'),
      signature: bytes("signature"),
      userHandle: bytes("user-id"),
    },
    getClientExtensionResults: () => ({}),
  };
}

/** A credential as `navigator.credentials.create` resolves it (an attestation). */
export function attestation() {
  return {
    id: "bmV3",
    rawId: bytes("new"),
    type: "public-key",
    authenticatorAttachment: "cross-platform",
    response: {
      attestationObject: bytes("attestation"),
      clientDataJSON: bytes('{"type":"webauthn.create"}'),
      getTransports: () => ["usb"],
    },
    getClientExtensionResults: () => ({}),
  };
}

/** A DOMException as browsers raise it when a ceremony is cancelled or times out. */
export function notAllowed(): DOMException {
  return new DOMException("The operation either timed out or was not allowed.", "NotAllowedError");
}

/**
 * jsdom has no WebAuthn: a stand-in `PublicKeyCredential` and `navigator.credentials` whose
 * `get` and `create` the test scripts. Conditional mediation is off unless asked for.
 */
export function stubWebAuthn(options: { autofill?: boolean } = {}) {
  const get = vi.fn<(options: CredentialRequestOptions) => Promise<unknown>>();
  const create = vi.fn<(options: CredentialCreationOptions) => Promise<unknown>>();
  const credential = Object.assign(function PublicKeyCredential() {}, {
    isConditionalMediationAvailable: () => Promise.resolve(options.autofill === true),
  });
  vi.stubGlobal("PublicKeyCredential", credential);
  Object.defineProperty(navigator, "credentials", {
    configurable: true,
    value: { get, create },
  });
  return {
    get,
    create,
    restore: () => {
      vi.unstubAllGlobals();
      Reflect.deleteProperty(navigator, "credentials");
    },
  };
}

/** A posted field that holds JSON (the browser's answer), parsed. */
export function jsonField(form: FormData, name: string): unknown {
  const value = form.get(name);
  return typeof value === "string" ? JSON.parse(value) : undefined;
}
