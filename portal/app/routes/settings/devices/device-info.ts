import { isbotNaive } from "isbot";
import UAParser from "ua-parser-js";

/** Spec §2 "Trusted devices list": the device-type icons. */
export type DeviceKind = "tablet" | "mobile" | "desktop" | "tv" | "bot" | "unknown";

export interface DeviceInfo {
  kind: DeviceKind;
  /** "Firefox 140.0", or undefined when the user agent names no browser. */
  browser: string | undefined;
  /** "Windows 10", or undefined when it names no system. */
  os: string | undefined;
}

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
  if (userAgent.trim() === "") return { kind: "unknown", browser: undefined, os: undefined };
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
