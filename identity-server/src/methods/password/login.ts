import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../../context.ts";
import { ensureCsrf } from "../../flows/csrf-check.ts";
import type { Flow } from "../../flows/flow.ts";
import { csrfTokenFor } from "../../http/csrf.ts";
import { decodeFlowBody } from "../../http/flow-body.ts";
import type { Credential, Identity } from "../../identity/identity.ts";
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
import { csrfNode, findInput, inputNode, setNodeValue, upsertNode } from "../../ui/nodes.ts";
import { ValidationError, type FieldMessage } from "../../ui/validation-error.ts";
import { hashPassword, needsRehash, spendDummyVerification, verifyPassword } from "./hasher.ts";
import { passwordNode, passwordSubmitNode } from "./nodes.ts";

const loginFields = [
  { name: "csrf_token", type: "string" },
  { name: "identifier", type: "string" },
  { name: "password_identifier", type: "string" },
  { name: "password", type: "string" },
  { name: "method", type: "string" },
  { name: "transient_payload", type: "object" },
] as const;

/** First-factor form: identifier (labelled after the schema's identifier trait), password, submit. */
export function populatePasswordLogin(ctx: ServerContext, flow: Flow): void {
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
export function populatePasswordRefresh(flow: Flow, identity: Identity): void {
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

/**
 * The password strategy's login. Returns the authenticated identity; throws a ValidationError or
 * HerodotError for the flow's error handler after preparing the flow for re-rendering (password
 * cleared, identifier kept, fresh CSRF token) as Kratos does.
 */
export async function passwordLogin(
  ctx: ServerContext,
  request: FastifyRequest,
  reply: FastifyReply,
  flow: Flow,
): Promise<Identity> {
  let identifier = "";
  const prepareForRerender = () => {
    const password = findInput(flow.ui, "password");
    if (password) setNodeValue(password, undefined);
    const identifierNode = findInput(flow.ui, "identifier");
    if (identifierNode) setNodeValue(identifierNode, identifier);
    if (flow.type === "browser")
      upsertNode(flow.ui, csrfNode(csrfTokenFor(request, reply, ctx.cookies)));
  };
  try {
    const body = await decodeFlowBody(request, loginFields);
    identifier =
      (typeof body.identifier === "string" ? body.identifier : "") ||
      (typeof body.password_identifier === "string" ? body.password_identifier : "");
    const password = typeof body.password === "string" ? body.password : "";
    const missing: FieldMessage[] = [];
    if (password === "")
      missing.push({ field: "password", message: uiText(4000002, { property: "password" }) });
    if (identifier === "") {
      missing.push({ field: "identifier", message: uiText(4000002, { property: "identifier" }) });
    }
    if (missing.length > 0) throw new ValidationError(missing);

    ensureCsrf(
      ctx,
      request,
      flow,
      typeof body.csrf_token === "string" ? body.csrf_token : undefined,
    );

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
  } catch (error) {
    prepareForRerender();
    throw error;
  }
}
