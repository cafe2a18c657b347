import type { ServerContext } from "../../context.ts";
import type { Identity } from "../../identity/identity.ts";
import type { Flow } from "../../selfservice/flow.ts";
import { uiText } from "../../text/messages.ts";
import { upsertNode } from "../../ui/nodes.ts";
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
import { findRecord, type WebAuthnCredentialRecord } from "../webauthn-base/credential-records.ts";
import { saveUsedRecord } from "../webauthn-base/used-record.ts";
import { WebAuthnRefused } from "../webauthn-base/webauthn-refused.ts";
import { webauthnCredentialOf } from "./security-keys.ts";
import {
  webauthnIdentifierNode,
  webauthnLoginInputNode,
  webauthnLoginTriggerNode,
} from "./webauthn-nodes.ts";

// What both webauthn logins (second factor, and passwordless when configured) share: offering
// some of the identity's keys and checking the answer against them.

const key = ceremonyKey("webauthn");

/**
 * Kratos' populateLoginMethod: request options allowing only `keys`, their challenge kept in the
 * flow's internal context, the credential's identifier (hidden), the trigger (labelled
 * `labelId`) and the hidden answer input.
 */
export async function offerKeys(
  ctx: ServerContext,
  flow: Flow,
  identity: Identity,
  keys: readonly WebAuthnCredentialRecord[],
  labelId: number,
): Promise<void> {
  const options = await createAuthenticationOptions(ctx.config.webauthn, keys);
  storeCeremony(flow, key, { challenge: options.challenge });
  const identifier = webauthnCredentialOf(identity)?.identifiers[0];
  if (identifier) upsertNode(flow.ui, webauthnIdentifierNode(identifier));
  upsertNode(flow.ui, webauthnLoginTriggerNode(options, uiText(labelId)));
  upsertNode(flow.ui, webauthnLoginInputNode());
}

/**
 * Checks an assertion: the flow's challenge is taken first (single use, whatever follows), the key
 * must be one of `keys`, and signature, origin, RP id and counter must verify; the key's new
 * counter is stored. Throws WebAuthnRefused otherwise.
 */
export async function verifyKeyAssertion(
  ctx: ServerContext,
  flow: Flow,
  identity: Identity,
  keys: readonly WebAuthnCredentialRecord[],
  answer: string,
): Promise<void> {
  const ceremony = await consumeCeremony(ctx.db, flow, key);
  const response = parseAuthenticationResponse(answer);
  const stored = findRecord(keys, response.id);
  if (!stored) throw new WebAuthnRefused("the key is not one of this identity's keys");
  const used = await verifyAuthentication(
    ctx.config.webauthn,
    response,
    ceremony.challenge,
    stored,
  );
  await saveUsedRecord(ctx.db, identity.id, "webauthn", used, ctx.now());
}
