import type { ServerContext } from "../../context.ts";
import type { Flow } from "../../selfservice/flow.ts";
import { credentialOf, type Credential, type Identity } from "../../identity/identity.ts";
import { normalizeEmail } from "../../identity/normalize.ts";
import { deviceKeyFor, hasDeviceCookie, rememberDevice } from "../../rate-limit/device-cookie.ts";
import {
  ensurePasswordAttemptAllowed,
  recordPasswordLogin,
  recordWrongPassword,
  type PasswordAttempt,
} from "../../rate-limit/rate-limits.ts";
import { findIdentityByIdentifier, updateCredentialConfig } from "../../store/identities.ts";
import { uiText } from "../../text/messages.ts";
import { findInput, inputNode, setNodeValue, upsertNode } from "../../ui/nodes.ts";
import { ValidationError, type FieldMessage } from "../../ui/validation-error.ts";
import {
  clearInput,
  missingValue,
  runMethodStep,
  stringValue,
  type MethodForm,
} from "../method-step.ts";
import type { LoginStep, LoginStrategy } from "../login-strategy.ts";
import { hashPassword, needsRehash, spendDummyVerification, verifyPassword } from "./hasher.ts";
import { passwordNode, passwordSubmitNode } from "./nodes.ts";
import { methodFields } from "../../selfservice/method-fields.ts";

const loginFields = methodFields({
  identifier: "string",
  password_identifier: "string",
  password: "string",
});

/** First-factor form: identifier (labelled after the schema's identifier trait), password, submit. */
function populatePasswordLogin(ctx: ServerContext, flow: Flow): void {
  const title = ctx.schema.identifierTitle;
  upsertNode(
    flow.ui,
    inputNode({
      name: "identifier",
      type: "text",
      group: "default",
      value: "",
      required: true,
      label: title ? uiText(1070002, { title: title.title, name: title.name }) : uiText(1070004),
    }),
  );
  upsertNode(flow.ui, passwordNode("current-password"));
  flow.ui.nodes.push(passwordSubmitNode(1010022));
}

/** Re-authentication form: the session's identifier is fixed (hidden), only the password is asked. */
function populatePasswordRefresh(flow: Flow, identity: Identity): void {
  const credential = identity.credentials.find((c) => c.type === "password");
  const identifier = credential?.identifiers[0];
  if (!identifier) return;
  upsertNode(
    flow.ui,
    inputNode({ name: "identifier", type: "hidden", group: "default", value: identifier }),
  );
  upsertNode(flow.ui, passwordNode("current-password"));
  flow.ui.nodes.push(passwordSubmitNode(1010001));
}

/**
 * Replaces an imported (bcrypt, argon2i) hash by an argon2id one after a successful login, as
 * Kratos does; a failure is logged and the login goes on with the old hash kept.
 */
async function migrateHash(ctx: ServerContext, credential: Credential, password: string) {
  try {
    const config = { ...credential.config, hashed_password: await hashPassword(password) };
    await updateCredentialConfig(ctx.db, credential.id, config, ctx.now());
    credential.config = config;
  } catch (error) {
    ctx.logger.warn({ err: error }, "could not migrate an imported password hash; keeping it");
  }
}

/** The password form's payload: both identifier spellings Kratos accepts, and the password. */
const passwordForm: MethodForm = {
  fields: loginFields,
  missing(values) {
    const missing: FieldMessage[] = [];
    if (stringValue(values.password) === undefined) missing.push(missingValue("password"));
    if (identifierOf(values) === "") missing.push(missingValue("identifier"));
    return missing;
  },
  rerender(flow, values) {
    clearInput(flow, "password");
    const identifierNode = findInput(flow.ui, "identifier");
    if (identifierNode) setNodeValue(identifierNode, values ? identifierOf(values) : "");
  },
};

function identifierOf(values: Record<string, unknown>): string {
  return stringValue(values.identifier) || stringValue(values.password_identifier) || "";
}

/**
 * The password strategy's login. Returns the authenticated identity; throws a ValidationError or
 * HerodotError for the flow's error handler after preparing the flow for re-rendering (password
 * cleared, identifier kept, fresh CSRF token) as Kratos does.
 */
async function passwordLogin(step: LoginStep): Promise<Identity> {
  const { ctx, request, reply, flow } = step;
  return runMethodStep(step, passwordForm, async (values) => {
    const identifier = identifierOf(values);
    const password = stringValue(values.password) ?? "";
    // Limited: refused before any hash is computed (also a DoS guard). Without a device cookie,
    // before the identifier is even looked up; with one, the look-up says whether the cookie names
    // this account and so whose budget counts (src/rate-limit/device-cookie.ts).
    const key = normalizeEmail(identifier);
    const attempt: PasswordAttempt = { identifier: key, ip: request.ip };
    const browser = flow.type === "browser";
    let found: Awaited<ReturnType<typeof findIdentityByIdentifier>>;
    if (browser && hasDeviceCookie(request)) {
      found = await findIdentityByIdentifier(ctx.db, "password", key);
      if (found) {
        attempt.device = deviceKeyFor(request, ctx.cookies, found.identity.id, found.credential);
      }
      ensurePasswordAttemptAllowed(ctx, attempt);
    } else {
      ensurePasswordAttemptAllowed(ctx, attempt);
      found = await findIdentityByIdentifier(ctx.db, "password", key);
    }
    const hashed = found?.credential.config.hashed_password;
    if (!found || typeof hashed !== "string") {
      await spendDummyVerification(password);
      recordWrongPassword(ctx, attempt);
      throw ValidationError.of("", uiText(4000006));
    }
    if (!(await verifyPassword(password, hashed))) {
      recordWrongPassword(ctx, attempt);
      throw ValidationError.of("", uiText(4000006));
    }
    recordPasswordLogin(ctx, attempt);
    if (needsRehash(hashed)) await migrateHash(ctx, found.credential, password);
    // After the migration: the entry is signed under the hash now stored.
    if (browser) rememberDevice(request, reply, ctx.cookies, found.identity.id, found.credential);
    return found.identity;
  });
}

/** The password as a first factor; with a session it re-authenticates the session's identity. */
export const passwordLoginStrategy: LoginStrategy = {
  id: "password",
  group: "password",
  aal: "aal1",
  configured: (identity) => credentialOf(identity, "password") !== undefined,
  responsible: (body) => body.string("method") === "password",
  populate(ctx, flow, identity) {
    if (identity) populatePasswordRefresh(flow, identity);
    else populatePasswordLogin(ctx, flow);
  },
  async submit(step) {
    return { kind: "authenticated", identity: await passwordLogin(step) };
  },
};
