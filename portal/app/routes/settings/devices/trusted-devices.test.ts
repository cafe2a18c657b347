import { UiNodeFromJSON } from "@portal/client";
import { describe, expect, it, vi } from "vitest";
import { parseTrustedDevices, thisDeviceIds, trustedDevicesData } from "./trusted-devices.ts";
import type { TrustedDevice } from "./trusted-devices.ts";

const firefox = {
  user_agent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0",
  ip_address: "203.0.113.7",
  created_at: "2026-06-05T15:04:00Z",
  expires_at: "2026-07-05T15:04:00Z",
  fingerprint: "fp-1",
};

/** The identity service's node, as its README documents it. */
function listNode(data: string) {
  return UiNodeFromJSON({
    type: "text",
    group: "totp",
    attributes: {
      text: { id: 9010004, text: data, type: "info", context: { data } },
      id: "totp-trusted-devices",
      data,
      node_type: "text",
    },
    messages: [],
    meta: { label: { id: 9010005, text: "Trusted devices", type: "info" } },
  });
}

describe("the trusted-devices list", () => {
  it("is read from the text's context, where the SDK keeps it", () => {
    const data = JSON.stringify({ d1: firefox });
    expect(trustedDevicesData([listNode(data)])).toBe(data);
    expect(trustedDevicesData([])).toBeUndefined();
  });

  it("gives every readable device with its key as id, in the order sent", () => {
    const log = vi.fn();
    const devices = parseTrustedDevices(
      JSON.stringify({ d1: firefox, d2: { ...firefox, fingerprint: "", ip_address: "" } }),
      log,
    );

    expect(devices).toEqual([
      {
        id: "d1",
        userAgent: firefox.user_agent,
        ipAddress: "203.0.113.7",
        createdAt: "2026-06-05T15:04:00Z",
        fingerprint: "fp-1",
      },
      {
        id: "d2",
        userAgent: firefox.user_agent,
        ipAddress: "",
        createdAt: "2026-06-05T15:04:00Z",
        fingerprint: "",
      },
    ]);
    expect(log).not.toHaveBeenCalled();
  });

  it("skips and logs entries it cannot read, keeping the others", () => {
    const log = vi.fn();
    const devices = parseTrustedDevices(
      JSON.stringify({
        broken: "not a device",
        noAgent: { ...firefox, user_agent: 42 },
        badDate: { ...firefox, created_at: "yesterday" },
        good: firefox,
      }),
      log,
    );

    expect(devices.map((device) => device.id)).toEqual(["good"]);
    expect(log).toHaveBeenCalledTimes(3);
    expect(log).toHaveBeenCalledWith('trusted devices: skipped unreadable entry "badDate"');
  });

  it("logs a list that is no JSON object and shows none", () => {
    const log = vi.fn();
    expect(parseTrustedDevices("{not json", log)).toEqual([]);
    expect(parseTrustedDevices("[1,2]", log)).toEqual([]);
    expect(log).toHaveBeenCalledTimes(2);
    expect(parseTrustedDevices("{}", log)).toEqual([]);
    expect(parseTrustedDevices(undefined, log)).toEqual([]);
    expect(log).toHaveBeenCalledTimes(2);
  });
});

describe("thisDeviceIds", () => {
  const device = (id: string, fingerprint: string, current?: boolean): TrustedDevice => ({
    id,
    userAgent: "",
    ipAddress: "",
    createdAt: "2026-06-05T15:04:00Z",
    fingerprint,
    ...(current === undefined ? {} : { current }),
  });
  const ids = (devices: TrustedDevice[], fingerprint: string | undefined) => [
    ...thisDeviceIds(devices, fingerprint),
  ];

  it("follows the identity service's verdict from the device's own cookie, not the fingerprint", () => {
    // Two browsers with one fingerprint: only the one whose cookie the service saw is marked.
    const twins = [device("a", "fp-1", false), device("b", "fp-1", true)];
    expect(ids(twins, "fp-1")).toEqual(["b"]);
    expect(ids([device("a", "fp-1", false), device("b", "fp-2", false)], "fp-1")).toEqual([]);
  });

  it("falls back to the entry whose fingerprint is this browser's", () => {
    expect(ids([device("a", "fp-1"), device("b", "fp-2")], "fp-1")).toEqual(["a"]);
    expect(ids([device("a", "fp-1")], "fp-2")).toEqual([]);
  });

  it("compares nothing when either fingerprint is unknown", () => {
    expect(ids([device("a", "")], undefined)).toEqual([]);
    expect(ids([device("a", "")], "")).toEqual([]);
    expect(ids([device("a", "fp-1")], undefined)).toEqual([]);
    expect(ids([device("a", "")], "fp-1")).toEqual([]);
  });
});
