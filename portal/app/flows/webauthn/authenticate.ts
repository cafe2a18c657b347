/**
 * A WebAuthn sign-in (navigator.credentials.get) with the options and the answer in the JSON form
 * Kratos uses, the same shapes as @simplewebauthn/browser's startAuthentication. The portal's
 * own, short code: every sign-in page with passkey nodes loads it at hydration (the passkey
 * autofill must be pending before the identifier field opens its list), and the library's sign-in
 * path with its error classification is ~1 kB gzip more (DESIGN §6 budget). Registrations still
 * use the library (registration.ts, loaded only when one starts).
 */

/** Options as Kratos sends them: binary fields base64url-encoded. */
interface RequestOptionsJSON {
  challenge: string;
  allowCredentials?: { id: string; type: string; transports?: string[] }[];
  [field: string]: unknown;
}

let pending: AbortController | undefined;

/**
 * Cancels the ceremony still waiting (the autofill's, or a second click's), as a new one may not
 * start while another runs: its promise rejects with an AbortError, which the caller ignores.
 */
export function abortPending(): void {
  const error = new Error("Another WebAuthn ceremony started");
  error.name = "AbortError";
  pending?.abort(error);
  pending = undefined;
}

export function supportsWebAuthn(): boolean {
  return typeof globalThis.PublicKeyCredential === "function";
}

/** Whether the browser can offer passkeys in a field's autofill (conditional mediation). */
export async function supportsAutofill(): Promise<boolean> {
  if (!supportsWebAuthn()) return false;
  // Older browsers have no such method: no autofill there.
  const credential = PublicKeyCredential as {
    isConditionalMediationAvailable?: () => Promise<boolean>;
  };
  return credential.isConditionalMediationAvailable?.() ?? false;
}

/**
 * Asks the browser for an assertion. `autofill` makes it a conditional request (the passkeys are
 * offered in the field whose autocomplete ends in "webauthn"), which takes an empty allow list.
 * Browser errors (NotAllowedError, AbortError…) reach the caller as they are.
 */
export async function authenticate(options: RequestOptionsJSON, autofill: boolean) {
  const allowed = autofill ? [] : options.allowCredentials;
  const publicKey = {
    ...options,
    challenge: bytesOf(options.challenge),
    // An empty list is left out of a modal request: it would hide the discoverable credentials.
    allowCredentials:
      allowed?.length === 0 && !autofill
        ? undefined
        : allowed?.map((credential) => ({ ...credential, id: bytesOf(credential.id) })),
  } as PublicKeyCredentialRequestOptions;
  abortPending();
  const controller = new AbortController();
  pending = controller;
  const credential = (await navigator.credentials.get({
    publicKey,
    signal: controller.signal,
    ...(autofill && { mediation: "conditional" as CredentialMediationRequirement }),
  })) as PublicKeyCredential | null;
  if (pending === controller) pending = undefined;
  if (!credential) throw new Error("The browser answered without a credential");
  const response = credential.response as AuthenticatorAssertionResponse;
  const attachment = credential.authenticatorAttachment;
  return {
    id: credential.id,
    rawId: base64url(credential.rawId),
    response: {
      authenticatorData: base64url(response.authenticatorData),
      clientDataJSON: base64url(response.clientDataJSON),
      signature: base64url(response.signature),
      userHandle: response.userHandle ? base64url(response.userHandle) : undefined,
    },
    type: credential.type,
    clientExtensionResults: credential.getClientExtensionResults(),
    authenticatorAttachment:
      attachment === "platform" || attachment === "cross-platform" ? attachment : undefined,
  };
}

function bytesOf(text: string): ArrayBuffer {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, "="));
  return Uint8Array.from(binary, (character) => character.charCodeAt(0)).buffer;
}

function base64url(buffer: ArrayBuffer): string {
  let binary = "";
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
