import type { UiNode } from "@portal/client";
import { isRecord, isTextAttributes } from "../../../flows/node-guards.ts";
import { isTrustedDevicesNode } from "./trusted-devices-node.ts";

/** Spec §3 "Trusted device": one entry of the identity service's list, its key as id. */
export interface TrustedDevice {
  id: string;
  userAgent: string;
  ipAddress: string;
  createdAt: string;
  /** "" when the browser sent no fingerprint when it was trusted. */
  fingerprint: string;
  /**
   * The identity service's verdict from the browser's own trusted-device cookie: whether this
   * entry is the browser asking. Absent when the service gives none (one that does not mark it).
   */
  current?: boolean;
}

/**
 * The list's JSON string. It is read from the text's context: the SDK's node models drop the
 * node's own `data` attribute, and the text itself is only a copy.
 */
export function trustedDevicesData(nodes: readonly UiNode[]): string | undefined {
  const node = nodes.find(isTrustedDevicesNode);
  if (!node || !isTextAttributes(node.attributes)) return undefined;
  const context: unknown = node.attributes.text.context;
  const data = isRecord(context) ? context.data : undefined;
  return typeof data === "string" ? data : undefined;
}

/**
 * The devices in the list, oldest first as sent. Spec §8: an entry that cannot be read is
 * logged and skipped, so one bad entry never hides the others (or the page).
 */
export function parseTrustedDevices(
  data: string | undefined,
  log: (message: string) => void = console.warn,
): TrustedDevice[] {
  if (data === undefined || data.trim() === "") return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    log("trusted devices: the list is not JSON");
    return [];
  }
  if (!isRecord(parsed)) {
    log("trusted devices: the list is not an object keyed by device id");
    return [];
  }
  return Object.entries(parsed).flatMap(([id, entry]) => {
    const device = readDevice(id, entry);
    if (!device) log(`trusted devices: skipped unreadable entry ${JSON.stringify(id)}`);
    return device ? [device] : [];
  });
}

function readDevice(id: string, entry: unknown): TrustedDevice | undefined {
  if (id === "" || !isRecord(entry)) return undefined;
  const { user_agent, ip_address, created_at, fingerprint, current } = entry;
  if (typeof user_agent !== "string" || typeof ip_address !== "string") return undefined;
  if (typeof created_at !== "string" || Number.isNaN(Date.parse(created_at))) return undefined;
  return {
    id,
    userAgent: user_agent,
    ipAddress: ip_address,
    createdAt: created_at,
    fingerprint: typeof fingerprint === "string" ? fingerprint : "",
    ...(typeof current === "boolean" ? { current } : {}),
  };
}

/**
 * The entries that are the browser looking at the list. The device's own trusted-device cookie
 * decides: when the identity service marked entries `current` (by that cookie), only those.
 * Two browsers can share a fingerprint, so the fingerprint is only the fallback for a service
 * that gives no verdict: both fingerprints known and equal. Without a fingerprint of either side
 * nothing is compared, so no entry is marked.
 */
export function thisDeviceIds(
  devices: readonly TrustedDevice[],
  fingerprint: string | undefined,
): ReadonlySet<string> {
  if (devices.some((device) => device.current !== undefined)) {
    return new Set(devices.filter((device) => device.current === true).map((device) => device.id));
  }
  if (fingerprint === undefined || fingerprint === "") return new Set();
  return new Set(
    devices.filter((device) => device.fingerprint === fingerprint).map((device) => device.id),
  );
}
