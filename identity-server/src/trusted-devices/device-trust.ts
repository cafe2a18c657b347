import { randomUUID } from "node:crypto";
import type { FastifyRequest } from "fastify";
import type { ServerContext } from "../context.ts";
import { hashToken, randomToken } from "../session/session.ts";
import type { Executor } from "../store/schema.ts";
import {
  findTrustedDeviceByTokenHash,
  insertTrustedDevice,
  type TrustedDevice,
} from "../store/trusted-devices.ts";
import { trustedDeviceToken } from "./trusted-device-cookie.ts";

/** Longer values are cut: the fingerprint is compared, never parsed, and must not bloat the table. */
const maxFingerprintLength = 512;

/** The browser fingerprint the portal forwards in `x-session-entropy`, if any. */
function requestFingerprint(request: FastifyRequest): string | undefined {
  const value = request.headers["x-session-entropy"];
  const fingerprint = Array.isArray(value) ? value[0] : value;
  return fingerprint ? fingerprint.slice(0, maxFingerprintLength) : undefined;
}

/**
 * Records the browser as trusted by the identity after a second factor; returns the device and
 * the token for its cookie. Only the token's hash is stored.
 */
export async function trustDevice(
  ctx: ServerContext,
  db: Executor,
  request: FastifyRequest,
  identityId: string,
): Promise<{ device: TrustedDevice; token: string }> {
  const now = ctx.now();
  const token = randomToken("ory_td_");
  const userAgent = request.headers["user-agent"];
  const device: TrustedDevice = {
    id: randomUUID(),
    identityId,
    tokenHash: hashToken(token),
    userAgent: typeof userAgent === "string" ? userAgent : null,
    ipAddress: request.ip,
    fingerprint: requestFingerprint(request) ?? null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + ctx.config.secondFactor.trustedDeviceLifespanMs),
  };
  await insertTrustedDevice(db, device);
  return { device, token };
}

/**
 * The trusted-device record that lets this browser skip the identity's second factor: the cookie's
 * token must belong to the identity and be unexpired, and a fingerprint recorded with it must
 * equal the one the request carries.
 */
export async function trustedDeviceOf(
  ctx: ServerContext,
  request: FastifyRequest,
  identityId: string,
): Promise<TrustedDevice | undefined> {
  const token = trustedDeviceToken(request);
  if (!token) return undefined;
  const device = await findTrustedDeviceByTokenHash(ctx.db, hashToken(token));
  if (!device || device.identityId !== identityId || device.expiresAt <= ctx.now()) {
    return undefined;
  }
  if (device.fingerprint !== null && device.fingerprint !== requestFingerprint(request)) {
    return undefined;
  }
  return device;
}
