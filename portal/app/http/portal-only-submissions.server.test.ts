// @vitest-environment node
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPortalProcess, type PortalProcess } from "../../test/portal-process.ts";
import { isPortalOnlySubmission } from "./portal-only-submissions.server.ts";

// The independent attack on issue 12: the portal's composition rule (spec §5, message 203) was
// skipped by posting the registration flow as JSON through the /api/kratos proxy. The portal's own
// pages submit registration and settings on the server, so the proxy refuses those submissions.

interface Answer {
  status: number;
  body: string;
}

/** A raw request (no client-side path normalisation), so path tricks reach the portal as sent. */
function send(
  port: number,
  method: string,
  path: string,
  body?: string,
  contentType = "application/json",
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        agent: false,
        headers: { "content-type": contentType, accept: "application/json" },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const registration = JSON.stringify({
  method: "password",
  password: "correcthorsebatterystaple",
  traits: { email: "nocaps@example.org" },
});

describe("which proxied requests are the portal's own", () => {
  it.each([
    ["POST", "/self-service/registration?flow=r1"],
    ["POST", "/self-service/settings?flow=s1"],
    ["PUT", "/self-service/settings?flow=s1"],
    ["POST", "/self-service/registration/"],
    ["POST", "//self-service//registration?flow=r1"],
    ["POST", "/self-service/./registration"],
    ["POST", "/self-service/x/../settings"],
    ["POST", "/self-service%2Fregistration"],
    ["POST", "/self-service/%72egistration"],
    ["POST", "/Self-Service/Settings"],
    ["POST", "/self-service\\settings"],
    // A GET with fields in the query is a submission to Kratos too (found by an independent attack).
    ["GET", "/self-service/settings?flow=s1&csrf_token=t&method=profile&traits.email=m%40x.org"],
    ["GET", "/self-service/registration?flow=r1&method=password&password=weak"],
    ["HEAD", "/self-service/settings?method=password"],
    ["GET", "/self-service/settings?flow=s1&flow=s2&method=password"],
  ])("%s %s is refused", (method, path) => {
    expect(isPortalOnlySubmission(method, path)).toBe(true);
  });

  it.each([
    ["GET", "/self-service/registration/browser"],
    ["GET", "/self-service/registration/flows?id=r1"],
    ["GET", "/self-service/settings?flow=s1"],
    ["GET", "/self-service/settings"],
    ["OPTIONS", "/self-service/settings?flow=s1"],
    ["GET", "/self-service/login?flow=l1&method=password"],
    ["POST", "/self-service/login?flow=l1"],
    ["POST", "/self-service/recovery?flow=c1"],
    ["POST", "/self-service/verification?flow=v1"],
    ["GET", "/sessions/whoami"],
    ["POST", "/self-service/registration-x"],
  ])("%s %s passes", (method, path) => {
    expect(isPortalOnlySubmission(method, path)).toBe(false);
  });
});

describe("the /api/kratos proxy of the real portal", () => {
  const received: string[] = [];
  let upstream: Server;
  let portal: PortalProcess;
  beforeAll(async () => {
    upstream = createServer((req, res) => {
      received.push(`${req.method ?? ""} ${req.url ?? ""}`);
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end("{}");
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    const { port } = upstream.address() as AddressInfo;
    portal = await startPortalProcess({ KRATOS_PUBLIC_URL: `http://127.0.0.1:${port}` });
  }, 60_000);
  afterAll(async () => {
    await portal.stop();
    await new Promise((resolve) => upstream.close(resolve));
  });

  it("refuses registration and settings submissions in the identity service's error shape", async () => {
    const form = "method=password&password=correcthorsebatterystaple&traits.email=x%40example.org";
    for (const [path, body, type] of [
      ["/api/kratos/self-service/registration?flow=r1", registration, "application/json"],
      ["/api/kratos/self-service/settings?flow=s1", registration, "application/json"],
      ["/api/kratos/self-service/registration?flow=r1", form, "application/x-www-form-urlencoded"],
      // Express matches the mount path in any case; pages take forms only.
      ["/API/Kratos/self-service//registration?flow=r1", form, "application/x-www-form-urlencoded"],
    ] as const) {
      const answer = await send(portal.port, "POST", path, body, type);
      expect(answer.status, path).toBe(403);
      expect(JSON.parse(answer.body)).toEqual({
        error: {
          code: 403,
          status: "Forbidden",
          reason:
            "Registration and settings are submitted through the portal's own pages, not through this proxy.",
          message: "The requested action was forbidden",
        },
      });
    }
    expect(received.filter((line) => /registration|settings/i.test(line))).toEqual([]);
  }, 60_000);

  it("still passes flow creation, reads, logins and GET navigation on", async () => {
    for (const [method, path] of [
      ["GET", "/api/kratos/self-service/registration/browser"],
      ["GET", "/api/kratos/self-service/settings?flow=s1"],
      ["POST", "/api/kratos/self-service/login?flow=l1"],
      ["GET", "/api/kratos/sessions/whoami"],
    ] as const) {
      const answer = await send(portal.port, method, path, method === "POST" ? "{}" : undefined);
      expect(answer.status, path).toBe(200);
      expect(received.at(-1)).toBe(`${method} ${path.slice("/api/kratos".length)}`);
    }
  }, 60_000);
});
