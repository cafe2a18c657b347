import type { FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import type { Flow } from "../selfservice/flow.ts";
import { badRequest } from "../http/errors.ts";
import type { Identity } from "../identity/identity.ts";
import { hasSecondFactor } from "../identity/second-factors.ts";
import { save, type SettingsOutcome } from "../methods/settings-outcome.ts";
import type { SettingsStep, SettingsStrategy } from "../methods/settings-strategy.ts";
import { handleSettingsSubmission } from "../methods/settings-submission.ts";
import { hashToken } from "../session/session.ts";
import type { Executor } from "../store/schema.ts";
import {
  deleteTrustedDevice,
  listTrustedDevices,
  type TrustedDevice,
} from "../store/trusted-devices.ts";
import { uiText } from "../text/messages.ts";
import { csrfNode, inputNode, textNode, upsertNode } from "../ui/nodes.ts";
import { ValidationError } from "../ui/validation-error.ts";
import { describeDevice } from "./device-description.ts";
import { clearTrustedDeviceCookie, trustedDeviceToken } from "./trusted-device-cookie.ts";
import { methodFields } from "../selfservice/method-fields.ts";

const untrustFields = methodFields({
  totp_device_untrust: "string",
});

function isUntrustSubmission(body: Record<string, unknown>): boolean {
  return typeof body.totp_device_untrust === "string";
}

/**
 * The list as the portal reads it: a JSON object keyed by device id (portal spec §3 "Trusted
 * device"), each entry with user_agent, ip_address, created_at, expires_at and fingerprint.
 * Each entry also says whether it is the browser asking (`current`), decided by that browser's
 * own trusted-device cookie (`cookieHash`, the SHA-256 of its token): two browsers can share one
 * fingerprint, but only the trusted one holds the cookie. A browser without the cookie is none
 * of them.
 */
function trustedDevicesJson(
  devices: readonly TrustedDevice[],
  cookieHash: string | undefined,
): string {
  const entries = devices.map((d) => [
    d.id,
    {
      user_agent: d.userAgent ?? "",
      ip_address: d.ipAddress ?? "",
      created_at: d.createdAt.toISOString(),
      expires_at: d.expiresAt.toISOString(),
      fingerprint: d.fingerprint ?? "",
      current: cookieHash !== undefined && d.tokenHash === cookieHash,
    },
  ]);
  return JSON.stringify(Object.fromEntries(entries));
}

/**
 * Our addition to the totp group while the identity has a second factor: the text node
 * `totp-trusted-devices` and one `totp_device_untrust` submit (9010006 "Stop trusting {device}")
 * per device, its value the device id. The node's text (9010004, or 9010009 for none) names the
 * devices in words, so a UI that does not know it still reads well; the JSON list is its
 * context's and its attributes' `data`.
 */
async function populateTrustedDevicesSettings(
  ctx: ServerContext,
  db: Executor,
  request: FastifyRequest,
  flow: Flow,
  identity: Identity,
  csrfToken: string,
): Promise<void> {
  // Strict mode (IDENTITY_ORY_EXTENSIONS=false): Kratos' totp group has no such nodes.
  if (!ctx.config.oryExtensions) return;
  if (!hasSecondFactor(identity, ctx.config.secondFactor)) return;
  const devices = await listTrustedDevices(db, identity.id, ctx.now());
  const token = trustedDeviceToken(request);
  const data = trustedDevicesJson(devices, token === undefined ? undefined : hashToken(token));
  const devicesText = devices.map(describeDevice).join("; ");
  const text =
    devices.length === 0
      ? uiText(9010009, {}, { data })
      : uiText(9010004, { devices: devicesText }, { data, devices: devicesText });
  const list = textNode("totp-trusted-devices", text, "totp", uiText(9010005));
  list.attributes = { ...list.attributes, data, node_type: "text" };
  upsertNode(flow.ui, csrfNode(csrfToken));
  upsertNode(flow.ui, list);
  for (const device of devices) {
    flow.ui.nodes.push(
      inputNode({
        name: "totp_device_untrust",
        type: "submit",
        group: "totp",
        value: device.id,
        label: uiText(
          9010006,
          { device: describeDevice(device) },
          { device_id: device.id, device: describeDevice(device) },
        ),
      }),
    );
  }
}

/**
 * Stops trusting one of the identity's devices. It only reduces access, so unlike credential
 * changes it needs no privileged session; CSRF is still checked. If it was this browser's device
 * its cookie is cleared too.
 */
async function untrustDeviceUpdate(step: SettingsStep): Promise<SettingsOutcome> {
  const { ctx, request, reply, identity } = step;
  return handleSettingsSubmission(step, untrustFields, async (body) => {
    const id = typeof body.totp_device_untrust === "string" ? body.totp_device_untrust : "";
    const devices = await listTrustedDevices(ctx.db, identity.id, ctx.now());
    const device = devices.find((d) => d.id === id);
    if (!device) throw badRequest("This device is not trusted by this account.");
    const token = trustedDeviceToken(request);
    if (token && hashToken(token) === device.tokenHash)
      clearTrustedDeviceCookie(reply, ctx.cookies);
    return save(identity, async (db) => {
      await deleteTrustedDevice(db, identity.id, device.id);
    });
  });
}

/** Our trusted devices, in the totp group of the settings form while a second factor exists. */
export const trustedDeviceSettingsStrategy: SettingsStrategy = {
  id: "trusted_device",
  group: "totp",
  selectorFields: untrustFields,
  responsible: isUntrustSubmission,
  populate: ({ ctx, db, request, flow, identity, csrfToken }) =>
    populateTrustedDevicesSettings(ctx, db, request, flow, identity, csrfToken),
  update(step) {
    // Ours: in strict mode no strategy knows the field, as in Kratos.
    if (!step.ctx.config.oryExtensions) throw ValidationError.of("", uiText(4010004));
    return untrustDeviceUpdate(step);
  },
};
