import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import { abortPending, authenticate, supportsAutofill, supportsWebAuthn } from "./authenticate.ts";
import { isRecord } from "../node-guards.ts";

/**
 * The browser side of Kratos' passkey and webauthn strategies, loaded only by forms that carry
 * their triggers (see use-webauthn.ts). Each trigger reads the options the flow put in a node,
 * asks the browser for a credential, puts the JSON answer into the node Kratos reads it from and
 * submits the form the portal's usual way (React Router's <Form>) with the strategy's `method`.
 */
interface Ceremony {
  /** The node whose value holds the options (a hidden input, or the trigger button itself). */
  options: string;
  /** The hidden input the browser's answer goes into. */
  result: string;
  method: "passkey" | "webauthn";
  /** `get` signs in with a credential, `create` makes one. */
  kind: "get" | "create";
  /** Conditional mediation: the passkey is offered in the identifier field's autofill. */
  autofill?: boolean;
}

/** The triggers Kratos names (x/webauthnx/js), each the portal's own function. */
const ceremonies: Readonly<Record<string, Ceremony>> = {
  oryPasskeyLogin: {
    options: "passkey_challenge",
    result: "passkey_login",
    method: "passkey",
    kind: "get",
  },
  oryPasskeyLoginAutocompleteInit: {
    options: "passkey_challenge",
    result: "passkey_login",
    method: "passkey",
    kind: "get",
    autofill: true,
  },
  oryPasskeyRegistration: {
    options: "passkey_create_data",
    result: "passkey_register",
    method: "passkey",
    kind: "create",
  },
  oryPasskeySettingsRegistration: {
    options: "passkey_create_data",
    result: "passkey_settings_register",
    method: "passkey",
    kind: "create",
  },
  oryWebAuthnLogin: {
    options: "webauthn_login_trigger",
    result: "webauthn_login",
    method: "webauthn",
    kind: "get",
  },
  oryWebAuthnRegistration: {
    options: "webauthn_register_trigger",
    result: "webauthn_register",
    method: "webauthn",
    kind: "create",
  },
};

/** What went wrong, as a catalogue key the form shows; `undefined` when nothing is to be said. */
export type CeremonyFailure =
  | "webauthn.error.notAllowed"
  | "webauthn.error.known"
  | "webauthn.error.unsupported"
  | "webauthn.error.failed";

/**
 * Runs one trigger on `form`. Resolves once the form was submitted (undefined), or with the
 * message to show. A passkey autofill that is not supported, or that another ceremony replaced,
 * ends quietly: the person still has the button and the other ways in.
 */
export async function runTrigger(
  trigger: string,
  form: HTMLFormElement,
): Promise<CeremonyFailure | undefined> {
  // An own property only: a node's trigger name must not reach Object.prototype.
  const ceremony = Object.hasOwn(ceremonies, trigger) ? ceremonies[trigger] : undefined;
  if (!ceremony) return "webauthn.error.failed";
  if (ceremony.autofill) {
    // The browser offers the passkeys in a field whose autocomplete ends in "webauthn".
    if (!document.querySelector("input[autocomplete$='webauthn']")) return undefined;
    if (!(await supportsAutofill())) return undefined;
  } else if (!supportsWebAuthn()) {
    return "webauthn.error.unsupported";
  }
  const options = readOptions(form, ceremony.options);
  const result = field(form, ceremony.result);
  if (!options || !(result instanceof HTMLInputElement)) return "webauthn.error.failed";
  let answer: unknown;
  try {
    if (ceremony.kind === "get") {
      answer = await authenticate(
        { ...options, challenge: String(options.challenge) },
        !!ceremony.autofill,
      );
    } else {
      // A pending autofill would keep the browser from starting this one.
      abortPending();
      const { startRegistration } = await import("./registration.ts");
      answer = await startRegistration({ optionsJSON: withDisplayName(form, options) });
    }
  } catch (error) {
    return ceremony.autofill ? undefined : failureOf(error);
  }
  result.value = JSON.stringify(answer);
  submit(form, ceremony.method);
  return undefined;
}

function failureOf(error: unknown): CeremonyFailure | undefined {
  // A DOMException from the browser (not always an Error instance outside browsers).
  const name = isRecord(error) && typeof error.name === "string" ? error.name : "";
  // Another ceremony (the button after the autofill, or a second click) took over.
  if (name === "AbortError") return undefined;
  // Cancelled, timed out, or refused by the browser: the spec gives them one name on purpose.
  if (name === "NotAllowedError") return "webauthn.error.notAllowed";
  // The authenticator already holds a credential for this account (excludeCredentials).
  if (name === "InvalidStateError") return "webauthn.error.known";
  return "webauthn.error.failed";
}

function field(form: HTMLFormElement, name: string): Element | undefined {
  return [...form.elements].find((element) => (element as HTMLInputElement).name === name);
}

/** Display-name fields Kratos names in the passkey registration data. */
interface Options extends Record<string, unknown> {
  displayNames?: string[];
}

/**
 * The options JSON in a node's value. Kratos wraps them as `{"publicKey": {...}}` (and, for a
 * passkey registration, inside `{"credentialOptions": ..., "displayNameFieldNames": [...]}`);
 * bare options (as @simplewebauthn/server makes them) are accepted as they are.
 */
function readOptions(form: HTMLFormElement, name: string): Options | undefined {
  const value = (field(form, name) as HTMLInputElement | undefined)?.value;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value ?? "");
  } catch {
    return undefined;
  }
  if (!isRecord(parsed)) return undefined;
  const names = [parsed.displayNameFieldNames, [parsed.displayNameFieldName]]
    .flat()
    .filter((entry): entry is string => typeof entry === "string" && entry !== "");
  const wrapped = isRecord(parsed.credentialOptions) ? parsed.credentialOptions : parsed;
  const options = isRecord(wrapped.publicKey) ? wrapped.publicKey : wrapped;
  return typeof options.challenge === "string" ? { ...options, displayNames: names } : undefined;
}

/**
 * A passkey is shown to the person under the name they just typed (the e-mail trait), as
 * Kratos' own script does: the first of the named fields that has a value.
 */
function withDisplayName(
  form: HTMLFormElement,
  { displayNames = [], ...options }: Options,
): PublicKeyCredentialCreationOptionsJSON {
  const creation = options as unknown as PublicKeyCredentialCreationOptionsJSON;
  const typed = displayNames
    .map((name) => (field(form, name) as HTMLInputElement | undefined)?.value)
    .find((value) => value);
  if (!typed || !isRecord(options.user)) return creation;
  return { ...creation, user: { ...creation.user, name: typed, displayName: typed } };
}

/**
 * Submits through React Router's <Form> (its submit handler, the form's onSubmit and the answer
 * handling all run) with `method` as the clicked button would send it: a submitter that exists
 * only for this one synchronous submit.
 */
function submit(form: HTMLFormElement, method: string): void {
  const submitter = document.createElement("button");
  submitter.type = "submit";
  submitter.name = "method";
  submitter.value = method;
  submitter.hidden = true;
  form.append(submitter);
  try {
    form.requestSubmit(submitter);
  } finally {
    submitter.remove();
  }
}
