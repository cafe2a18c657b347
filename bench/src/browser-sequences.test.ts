import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runSequence, type Step } from "./browser-sequences.ts";
import { signInForm } from "./portal-traffic.ts";

// A two-page "site": /start sets a cookie and redirects to /page?n=…, which answers 200 only to
// the cookie set for the same n (a browser's own), else 403.
let server: Server;
let base = "";
let counter = 0;
beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://x");
    if (url.pathname === "/start") {
      const n = ++counter;
      response.writeHead(303, {
        location: `/page?n=${n}`,
        "set-cookie": [`visit=${n}; Path=/; HttpOnly`, "other=1; Path=/"],
      });
      response.end();
      return;
    }
    const ok = request.headers.cookie === `visit=${url.searchParams.get("n")}; other=1`;
    response.writeHead(ok ? 200 : 403, { "content-type": "text/plain" });
    response.end(ok ? "fine" : "refused");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const steps: Step[] = [
  { to: () => ({ path: "/start" }), expect: (s) => s === 303 },
  { to: (v) => ({ path: v.location ?? "/" }), expect: (s) => s === 200 },
];

describe("runSequence", () => {
  it("carries each browser's cookies and redirect from step to step", async () => {
    const figures = await runSequence(base, steps, 2, 1);
    expect(figures.total).toBeGreaterThan(0);
    expect(figures.errors).toBe(0);
    expect(figures.perSecond).toBeGreaterThan(0);
  });

  it("counts a sequence whose step answers otherwise as failed, not done", async () => {
    const strict: Step[] = [steps[0] as Step, { ...(steps[1] as Step), expect: (s) => s === 201 }];
    const figures = await runSequence(base, strict, 2, 1);
    expect(figures.perSecond).toBe(0);
    expect(figures.errors).toBeGreaterThan(0);
  });
});

describe("signInForm", () => {
  it("finds the CSRF token and the form's action as React renders them", () => {
    const html =
      '<form noValidate="" data-discover="true" action="/en/login?flow=abc&amp;x=1" method="post">' +
      '<input type="hidden" name="csrf_token" value="a+b/c=="/><input name="identifier"/></form>';
    expect(signInForm(html)).toEqual({ csrfToken: "a+b/c==", action: "/en/login?flow=abc&x=1" });
    expect(signInForm("<p>no form</p>")).toBeUndefined();
  });
});
