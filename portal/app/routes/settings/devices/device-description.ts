import { useMatches } from "react-router";

// What the settings page shows of a device. The server describes every user agent the page lists
// (device-info.server.ts) and sends the descriptions with the page: the parser (ua-parser-js, about
// 10 kB of gzip JavaScript) never reaches the browser, which has the words already (issue 19).

/** Spec §2 "Trusted devices list": the device-type icons. */
export type DeviceKind = "tablet" | "mobile" | "desktop" | "tv" | "bot" | "unknown";

export interface DeviceInfo {
  kind: DeviceKind;
  /** "Firefox 140.0", or undefined when the user agent names no browser. */
  browser: string | undefined;
  /** "Windows 10", or undefined when it names no system. */
  os: string | undefined;
}

/** The page's devices, by user agent. */
export type DeviceDescriptions = Record<string, DeviceInfo>;

export const unknownDevice: DeviceInfo = { kind: "unknown", browser: undefined, os: undefined };

/**
 * The server's description of the user agent, from the loader data of the page's route (the
 * settings loader sends `devices`); one the page was not sent is an unknown device.
 */
export function useDeviceInfo(userAgent: string): DeviceInfo {
  const sent = useMatches()
    .map((match) => match.loaderData)
    .find(hasDescriptions)?.devices;
  return (sent && Object.hasOwn(sent, userAgent) ? sent[userAgent] : undefined) ?? unknownDevice;
}

function hasDescriptions(data: unknown): data is { devices: DeviceDescriptions } {
  return (
    typeof data === "object" &&
    data !== null &&
    "devices" in data &&
    typeof data.devices === "object" &&
    data.devices !== null
  );
}
