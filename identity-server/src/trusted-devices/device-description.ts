import type { TrustedDevice } from "../store/trusted-devices.ts";

// Words for a trusted device in node texts, for UIs that do not know our trusted devices (Ory
// Elements, kratos-selfservice-ui-node): they show `text` as sent, so it must say which device
// it is. UIs that know them read the JSON in the context instead and word it themselves.

// Order matters: Edge and Opera also say Chrome, Chrome also says Safari.
const browsers: readonly [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\b(OPR|Opera)\//, "Opera"],
  [/\b(Firefox|FxiOS)\//, "Firefox"],
  [/\b(Chrome|CriOS|Chromium)\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
];

const systems: readonly [RegExp, string][] = [
  [/\b(iPhone|iPod)\b/, "iOS"],
  [/\biPad\b/, "iPadOS"],
  [/\bAndroid\b/, "Android"],
  [/\bWindows\b/, "Windows"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
];

/** "Firefox on Linux"; an unknown agent as sent (cut to 60 characters). */
export function describeUserAgent(userAgent: string): string {
  const browser = browsers.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = systems.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  if (browser ?? system) return browser ?? system ?? "";
  const raw = userAgent.trim();
  if (raw === "") return "an unnamed browser";
  return raw.length > 60 ? `${raw.slice(0, 59)}…` : raw;
}

/** A date as YYYY-MM-DD (UTC): the same in every language. */
function day(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** "Firefox on Linux (203.0.113.5), trusted on 2026-07-01 until 2026-07-31". */
export function describeDevice(device: TrustedDevice): string {
  const address = device.ipAddress ? ` (${device.ipAddress})` : "";
  return (
    `${describeUserAgent(device.userAgent ?? "")}${address}, ` +
    `trusted on ${day(device.createdAt)} until ${day(device.expiresAt)}`
  );
}
