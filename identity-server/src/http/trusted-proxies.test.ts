import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../config/config.ts";
import { requestIp, settleForwardedHeaders } from "../oauth2/provider/request-ip.ts";
import { registerNative } from "../test-support/flow-helpers.ts";
import { startTestServer } from "../test-support/test-server.ts";
import { compileTrustedProxies } from "./trusted-proxies.ts";

/** Signs in through the native API with `X-Forwarded-For`; the session's device has the IP used. */
async function deviceIpAfterLogin(
  trusted: string,
  forwardedFor: string,
): Promise<string | undefined> {
  const ts = await startTestServer({ IDENTITY_TRUSTED_PROXIES: trusted });
  try {
    const { token } = await registerNative(ts, "proxied@example.com");
    const whoami = await fetch(`${ts.publicUrl}/sessions/whoami`, {
      headers: { authorization: `Bearer ${token}`, "x-forwarded-for": forwardedFor },
    });
    expect(whoami.status).toBe(200);
    // Registration's session records the device of the registering request: sign in again.
    const flow = (await (await fetch(`${ts.publicUrl}/self-service/login/api`)).json()) as {
      id: string;
    };
    const login = await fetch(`${ts.publicUrl}/self-service/login?flow=${flow.id}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": forwardedFor },
      body: JSON.stringify({
        method: "password",
        identifier: "proxied@example.com",
        password: "correct-Horse-battery-2-staple",
      }),
    });
    expect(login.status).toBe(200);
    const body = (await login.json()) as { session: { devices?: { ip_address?: string }[] } };
    return body.session.devices?.[0]?.ip_address;
  } finally {
    await ts.stop();
  }
}

describe("IDENTITY_TRUSTED_PROXIES on the identity server's public listener", () => {
  it("ignores X-Forwarded-For from a peer that is not in the list (loopback left out)", async () => {
    const ip = await deviceIpAfterLogin("10.0.0.0/8", "203.0.113.7");
    expect(ip).toMatch(/^(::ffff:)?127\.0\.0\.1$|^::1$/);
  });

  it("uses it from a listed peer, through a listed non-loopback proxy, up to the first untrusted hop", async () => {
    // The browser 198.51.100.9 went through a proxy at 10.1.2.3, which came through loopback.
    expect(await deviceIpAfterLogin("10.0.0.0/8, loopback", "198.51.100.9, 10.1.2.3")).toBe(
      "198.51.100.9",
    );
    // 10.1.2.3 is not trusted here: it is the client as far as the server can tell.
    expect(await deviceIpAfterLogin("loopback", "198.51.100.9, 10.1.2.3")).toBe("10.1.2.3");
  });

  it("never takes text that is not an address for the client's: the hop that sent it is the client", async () => {
    expect(await deviceIpAfterLogin("loopback", "garbage")).toMatch(
      /^(::ffff:)?127\.0\.0\.1$|^::1$/,
    );
    expect(await deviceIpAfterLogin("10.0.0.0/8, loopback", "8.8.8.8%eth0, 10.1.2.3")).toBe(
      "10.1.2.3",
    );
  });
});

describe("IDENTITY_TRUSTED_PROXIES on the OAuth2 public listener", () => {
  /** A real listener settling headers as the OAuth2 one does, echoing what Koa would see. */
  async function seenBehind(
    trusted: string[],
    headers: Record<string, string>,
  ): Promise<Record<string, unknown>> {
    const trust = compileTrustedProxies(trusted);
    const server = createServer((req, res) => {
      settleForwardedHeaders(req, trust);
      res.end(
        JSON.stringify({
          ip: requestIp(req),
          for: req.headers["x-forwarded-for"],
          proto: req.headers["x-forwarded-proto"],
          host: req.headers["x-forwarded-host"],
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      return (await (await fetch(`http://127.0.0.1:${port}/`, { headers })).json()) as Record<
        string,
        unknown
      >;
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }

  const forwarded = {
    "x-forwarded-for": "198.51.100.9, 10.1.2.3",
    "x-forwarded-proto": "https",
    "x-forwarded-host": "auth.example.com",
  };

  it("removes X-Forwarded-* from a peer that is not trusted, whatever the issuer", async () => {
    expect(await seenBehind(["10.0.0.0/8"], forwarded)).toEqual({ ip: "127.0.0.1" });
  });

  it("does not take text that is not an address for the client's", async () => {
    expect(await seenBehind(["loopback"], { "x-forwarded-for": "garbage" })).toEqual({
      ip: "127.0.0.1",
    });
  });

  it("keeps proto and host from a trusted peer and reduces X-Forwarded-For to the client", async () => {
    expect(await seenBehind(["10.0.0.0/8", "loopback"], forwarded)).toEqual({
      ip: "198.51.100.9",
      for: "198.51.100.9",
      proto: "https",
      host: "auth.example.com",
    });
  });
});

describe("IDENTITY_TRUSTED_PROXIES validation", () => {
  const base = { IDENTITY_DATA_DIR: "data" };

  it("defaults to loopback", () => {
    expect(loadConfig(base).trustedProxies).toEqual(["loopback"]);
    expect(loadConfig({ ...base, IDENTITY_TRUSTED_PROXIES: "none" }).trustedProxies).toEqual([]);
    // As wide as a list may go (a private network's range), and any three proxies' addresses.
    const widest = "10.0.0.0/8 fc00::/7 1.1.1.1 100.1.1.1 223.1.1.1";
    const accepted = loadConfig({ ...base, IDENTITY_TRUSTED_PROXIES: widest }).trustedProxies;
    expect(accepted).toEqual(widest.split(" "));
  });

  it.each([
    ["10.0.0.0/33", /IDENTITY_TRUSTED_PROXIES: .*10\.0\.0\.0\/33/],
    ["proxy.example.com", /IDENTITY_TRUSTED_PROXIES: .*proxy\.example\.com/],
    ["2", /IDENTITY_TRUSTED_PROXIES: "2" reads as an address, not a number of hops/],
    [
      "0.0.0.0/1, 128.0.0.0/1, ::/1, 8000::/1",
      /IDENTITY_TRUSTED_PROXIES: "0\.0\.0\.0\/1" is wider/,
    ],
    // Found by an independent attack: these passed the three-address spot check.
    ["2.0.0.0/7, 4.0.0.0/6", /IDENTITY_TRUSTED_PROXIES: "2\.0\.0\.0\/7" is wider than a private/],
    ["0.0.0.0/128.0.0.0", /IDENTITY_TRUSTED_PROXIES: .* is wider than a private network/],
    ["::ffff:0:0/97", /IDENTITY_TRUSTED_PROXIES: .* is wider than a private network/],
  ])("refuses %j, naming the variable", (value, message) => {
    expect(() => loadConfig({ ...base, IDENTITY_TRUSTED_PROXIES: value })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, IDENTITY_TRUSTED_PROXIES: value })).toThrow(message);
  });
});
