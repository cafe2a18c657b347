import { isbotNaive } from "isbot";
import type { UiNode } from "@portal/client";
import UAParser from "ua-parser-js";
import type { SessionsView } from "../sessions.ts";
import {
  unknownDevice,
  type DeviceDescriptions,
  type DeviceInfo,
  type DeviceKind,
} from "./device-description.ts";
import { parseTrustedDevices, trustedDevicesData } from "./trusted-devices.ts";

// Server-only (issue 19): the settings loader describes the devices it lists, so the parser stays
// out of the browser's JavaScript; device-description.ts has the shapes and the page's side.

/** Systems whose user agents mean a computer when the parser names no device type. */
const desktopSystems = new Set([
  "Windows",
  "Mac OS",
  "macOS",
  "Linux",
  "Ubuntu",
  "Debian",
  "Fedora",
  "Chromium OS",
  "Chrome OS",
  "FreeBSD",
  "OpenBSD",
]);

/** What a user agent says about the device: its kind, browser and system with versions. */
export function describeDevice(userAgent: string): DeviceInfo {
  // Given nothing, the parser would describe the browser it runs in: not this entry's device.
  if (userAgent.trim() === "") return unknownDevice;
  const result = new UAParser(userAgent).getResult();
  const named = (name: string | undefined, version: string | undefined) =>
    name ? [name, version].filter(Boolean).join(" ") : undefined;
  return {
    kind: deviceKind(userAgent, result.device.type, result.os.name),
    browser: named(result.browser.name, result.browser.version),
    os: named(result.os.name, result.os.version),
  };
}

function deviceKind(
  userAgent: string,
  type: string | undefined,
  os: string | undefined,
): DeviceKind {
  // ua-parser-js 1.x knows no bots; the short pattern is enough to tell scripts from browsers.
  if (userAgent !== "" && isbotNaive(userAgent)) return "bot";
  switch (type) {
    case "tablet":
      return "tablet";
    case "mobile":
    case "wearable":
      return "mobile";
    case "smarttv":
      return "tv";
    case undefined:
      return os !== undefined && desktopSystems.has(os) ? "desktop" : "unknown";
    default:
      return "unknown";
  }
}

/** Descriptions of the user agents a page lists (its loader data `devices`). */
export function describeDevices(userAgents: Iterable<string>): DeviceDescriptions {
  return Object.fromEntries(
    [...new Set(userAgents)].map((agent) => [agent, describeDevice(agent)]),
  );
}

/** The devices the settings page lists: its sessions' and the flow's trusted devices. */
export function describeListedDevices(
  sessions: SessionsView | undefined,
  nodes: readonly UiNode[],
): DeviceDescriptions {
  const listed = sessions ? [sessions.current, ...sessions.others] : [];
  // The card reports unreadable entries when it renders the list; no second report here.
  const trusted = parseTrustedDevices(trustedDevicesData(nodes), () => undefined);
  return describeDevices([
    ...listed.flatMap((session) => (session ? [session.userAgent] : [])),
    ...trusted.map((device) => device.userAgent),
  ]);
}
