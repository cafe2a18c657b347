import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderInPortal } from "../../../../test/render.tsx";
import { DeviceIcon } from "./device-icon.tsx";
import { describeDevice, describeDevices } from "./device-info.server.ts";

const agents = {
  iPad: "Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
  android:
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
  windows:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
  mac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7; rv:128.0) Gecko/20100101 Firefox/128.0",
  tv: "Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/4.0 Chrome/76.0.3809.146 TV Safari/537.36",
  bot: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
};

describe("describeDevice", () => {
  it.each([
    [agents.iPad, "tablet"],
    [agents.android, "mobile"],
    [agents.windows, "desktop"],
    [agents.mac, "desktop"],
    [agents.tv, "tv"],
    [agents.bot, "bot"],
    ["curl/8.5.0", "unknown"],
    ["", "unknown"],
  ])("tells the device kind of %s: %s", (userAgent, kind) => {
    expect(describeDevice(userAgent).kind).toBe(kind);
  });

  it("names the browser and the system with their versions", () => {
    expect(describeDevice(agents.windows)).toEqual({
      kind: "desktop",
      browser: "Chrome 126.0.0.0",
      os: "Windows 10",
    });
    expect(describeDevice(agents.android)).toMatchObject({
      browser: "Chrome 126.0.0.0",
      os: "Android 14",
    });
    expect(describeDevice("")).toEqual({ kind: "unknown", browser: undefined, os: undefined });
  });
});

describe("describeDevices", () => {
  it("describes each user agent once, by its text (the page's loader data)", () => {
    const described = describeDevices([agents.windows, agents.iPad, agents.windows, "__proto__"]);
    expect(Object.keys(described)).toEqual([agents.windows, agents.iPad, "__proto__"]);
    expect(described[agents.iPad]).toMatchObject({ kind: "tablet", os: "iOS 17.4" });
    expect(Object.getPrototypeOf(described)).toBe(Object.prototype);
  });
});

describe("DeviceIcon", () => {
  it.each([
    ["tablet", "Tablet", "Tableta"],
    ["mobile", "Mobile phone", "Teléfono móvil"],
    ["desktop", "Computer", "Ordenador"],
    ["tv", "TV", "Televisor"],
    ["bot", "Automated client", "Cliente automatizado"],
    ["unknown", "Device", "Dispositivo"],
  ] as const)("draws %s as an image named '%s' ('%s')", (kind, english, spanish) => {
    const { unmount } = renderInPortal(() => <DeviceIcon kind={kind} />);
    expect(screen.getByRole("img", { name: english })).toBeInTheDocument();
    unmount();
    renderInPortal(() => <DeviceIcon kind={kind} />, { locale: "es", url: "/es/login?flow=f1" });
    expect(screen.getByRole("img", { name: spanish })).toBeInTheDocument();
  });
});
