import type { ServerContext } from "../../context.ts";
import type { Identity } from "../../identity/identity.ts";
import {
  ensurePasswordAttemptAllowed,
  recordPasswordLogin,
  recordWrongPassword,
  type PasswordAttempt,
} from "../../rate-limit/rate-limits.ts";
import type { Flow } from "../../selfservice/flow.ts";
import { methodFields } from "../../selfservice/method-fields.ts";
import { updateFlow } from "../../store/flows.ts";
import { findIdentityByIdentifier } from "../../store/identities.ts";
import { uiText } from "../../text/messages.ts";
import { findInput, inputNode, upsertNode } from "../../ui/nodes.ts";
import { ValidationError } from "../../ui/validation-error.ts";
import type { LoginStep, LoginStrategy } from "../login-strategy.ts";
import { clearInput, runMethodStep, stringValue } from "../method-step.ts";
import {
  createAuthenticationOptions,
  parseAuthenticationResponse,
  verifyAuthentication,
} from "../webauthn-base/ceremonies.ts";
import {
  ceremonyKey,
  consumeCeremony,
  storeCeremony,
} from "../webauthn-base/ceremony-challenge.ts";
import {
  findRecord,
  webAuthnConfigOf,
  webAuthnRecordsOf,
} from "../webauthn-base/credential-records.ts";
import { saveUsedRecord } from "../webauthn-base/used-record.ts";
import { passkeyCount, passkeyDisplayName } from "./passkey-credentials.ts";
import {
  passkeyChallengeNode,
  passkeyLoginNode,
  passkeyLoginTriggerNode,
} from "./passkey-nodes.ts";

const key = ceremonyKey("passkey");

const loginFields = methodFields({ passkey_login: "string" });

/**
 * New request options for the flow, their challenge kept in its internal context: for any
 * discoverable passkey before a session, for the session identity's passkeys when it
 * re-authenticates (refresh).
 */
async function issueChallenge(ctx: ServerContext, flow: Flow, identity: Identity | undefined) {
  const allow = identity ? webAuthnRecordsOf(identity, "passkey") : [];
  const options = await createAuthenticationOptions(ctx.config.webauthn, allow);
  storeCeremony(flow, key, { challenge: options.challenge });
  // go-webauthn's CredentialAssertion, which Kratos serialises: the options under `publicKey`.
  upsertNode(flow.ui, passkeyChallengeNode(JSON.stringify({ publicKey: options })));
}

/** The identifier input, labelled as the password form labels it, offering passkey autofill. */
function autofillIdentifierNode(ctx: ServerContext) {
  const title = ctx.schema.identifierTitle;
  return inputNode({
    name: "identifier",
    type: "text",
    group: "default",
    value: "",
    required: true,
    autocomplete: "username webauthn",
    label: title ? uiText(1070002, { title: title.title, name: title.name }) : uiText(1070004),
  });
}

/**
 * Kratos' PopulateLoginMethodFirstFactor: the identifier with `autocomplete="username webauthn"`,
 * the options, the hidden `passkey_login` that starts autofill on load, and "Sign in with
 * passkey". A refresh (Kratos' PopulateLoginMethodFirstFactorRefresh) offers only the session
 * identity's passkeys, without autofill, and fixes the identifier.
 */
async function populatePasskeyLogin(
  ctx: ServerContext,
  flow: Flow,
  identity: Identity | undefined,
) {
  const browser = flow.type === "browser";
  if (identity) {
    if (passkeyCount(identity) === 0) return;
    await issueChallenge(ctx, flow, identity);
    upsertNode(flow.ui, passkeyLoginNode(browser, false));
    flow.ui.nodes.push(passkeyLoginTriggerNode(browser));
    if (!findInput(flow.ui, "identifier")) {
      const name = passkeyDisplayName(ctx, identity);
      upsertNode(
        flow.ui,
        inputNode({ name: "identifier", type: "hidden", group: "default", value: name }),
      );
    }
    return;
  }
  upsertNode(flow.ui, autofillIdentifierNode(ctx));
  await issueChallenge(ctx, flow, undefined);
  upsertNode(flow.ui, passkeyLoginNode(browser, true));
  flow.ui.nodes.push(passkeyLoginTriggerNode(browser));
}

/**
 * Verifies the assertion: the flow's challenge is taken first (so it is spent whatever follows),
 * then the identity is found by the user handle the authenticator returned (the passkey
 * credential's identifier), its passkey by the credential id, and the signature, origin, RP id
 * and counter are checked. Wrong answers count against the password budgets of that user handle
 * and of the client IP (9010007 when used up), as a wrong password does.
 */
async function passkeyLogin(step: LoginStep, assertionJson: string): Promise<Identity> {
  const { ctx, request, flow } = step;
  const session = await consumeCeremony(ctx.db, flow, key);
  const answer = parseAuthenticationResponse(assertionJson);
  const handle = answer.response.userHandle
    ? Buffer.from(answer.response.userHandle, "base64url").toString("utf8")
    : "";
  const attempt: PasswordAttempt = { identifier: `passkey:${handle}`, ip: request.ip };
  ensurePasswordAttemptAllowed(ctx, attempt);
  const found =
    handle === "" ? undefined : await findIdentityByIdentifier(ctx.db, "passkey", handle);
  if (!found) {
    recordWrongPassword(ctx, attempt);
    throw ValidationError.of("", uiText(4000015));
  }
  if (step.identity && step.identity.id !== found.identity.id) {
    // A refresh re-authenticates the session's identity, not another one.
    recordWrongPassword(ctx, attempt);
    throw ValidationError.of("", uiText(4000015));
  }
  const config = webAuthnConfigOf(found.credential);
  const record = findRecord(
    config.credentials.filter((r) => r.is_passwordless),
    answer.id,
  );
  try {
    if (!record) throw ValidationError.of("", uiText(4000043));
    const updated = await verifyAuthentication(
      ctx.config.webauthn,
      answer,
      session.challenge,
      record,
    );
    // Only this passkey's counter is written, against the credential as stored now.
    const identity = await saveUsedRecord(ctx.db, found.identity.id, "passkey", updated, ctx.now());
    recordPasswordLogin(ctx, attempt);
    return identity;
  } catch (error) {
    recordWrongPassword(ctx, attempt);
    throw error;
  }
}

/** The passkey as a first factor (Kratos' passkey strategy: AMR `passkey`, aal1). */
export const passkeyLoginStrategy: LoginStrategy = {
  id: "passkey",
  group: "passkey",
  aal: "aal1",
  configured: (identity) => passkeyCount(identity) > 0,
  // Kratos: a `passkey_login` value or `method=passkey` (the button without JavaScript).
  responsible: (body) =>
    (body.string("passkey_login") ?? "") !== "" || body.string("method") === "passkey",
  populate: populatePasskeyLogin,
  async submit(step) {
    return runMethodStep(
      step,
      { fields: loginFields, rerender: (flow) => clearInput(flow, "passkey_login") },
      async (values) => {
        const assertion = stringValue(values.passkey_login) ?? "";
        try {
          if (assertion === "") {
            // Kratos shows the passkey form again (here with new options) for `method=passkey`
            // without an answer, e.g. a browser without JavaScript.
            await issueChallenge(step.ctx, step.flow, step.identity);
            await updateFlow(step.ctx.db, step.flow, step.ctx.now());
            return { kind: "continue" as const };
          }
          return { kind: "authenticated" as const, identity: await passkeyLogin(step, assertion) };
        } catch (error) {
          // The challenge is spent: new options, so the form can be used again.
          await issueChallenge(step.ctx, step.flow, step.identity);
          throw error;
        }
      },
    );
  },
};
