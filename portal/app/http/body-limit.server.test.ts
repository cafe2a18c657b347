// @vitest-environment node
import { request as httpRequest, createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPortalProcess, type PortalProcess } from "../../test/portal-process.ts";
import { bodyLimitBytes, countFormFields, fieldLimit } from "./body-limit.server.ts";

// Request bodies against the real server process (server.ts over the production build): every
// body is read at most up to 64 KiB, larger ones are answered 413 without being read, on pages
// and on the /api/kratos proxy alike.

const mib = 1024 * 1024;
const oneMib = Buffer.alloc(mib, "a");

interface Answer {
  status: number | string;
  body: string;
  headers: Record<string, string | string[] | undefined>;
  ms: number;
}

/**
 * POSTs `size` bytes in 1 MiB writes (with Content-Length, or chunked) and resolves with the
 * answer as soon as it arrives, the upload unfinished or not, as a browser would.
 */
function upload(
  port: number,
  path: string,
  size: number,
  options: { chunked?: boolean; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const headers: Record<string, string> = {
      "content-type": "application/x-www-form-urlencoded",
      origin: `http://localhost:${port}`,
      ...options.headers,
    };
    if (!options.chunked) headers["content-length"] = String(size);
    let sent = 0;
    let answered = false;
    const req = httpRequest(
      { host: "127.0.0.1", port, path, method: "POST", headers, agent: false },
      (res) => {
        answered = true;
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => {
          resolve({
            status: res.statusCode ?? 0,
            body,
            headers: res.headers,
            ms: performance.now() - started,
          });
          req.destroy();
        });
      },
    );
    req.on("error", (error: Error & { code?: string }) => {
      if (!answered)
        resolve({
          status: error.code ?? "error",
          body: "",
          headers: {},
          ms: performance.now() - started,
        });
    });
    const write = () => {
      while (sent < size && !answered) {
        const part = Math.min(mib, size - sent);
        sent += part;
        if (!req.write(part === mib ? oneMib : oneMib.subarray(0, part))) {
          req.once("drain", write);
          return;
        }
      }
      if (!answered) req.end();
    };
    write();
  });
}

/** An ordinary POST with a small body, chunked unless a Content-Length is given. */
function sendBody(
  port: number,
  path: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        agent: false,
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: `http://localhost:${port}`,
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            body: text,
            headers: res.headers,
            ms: performance.now() - started,
          }),
        );
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** A stand-in for the identity service: records what reaches it and answers like Fastify does. */
interface Upstream {
  url: string;
  received: { path: string; headers: Record<string, unknown>; body: string }[];
  close(): Promise<void>;
}

async function startUpstream(): Promise<Upstream> {
  const received: Upstream["received"] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const tooLarge = () => {
      // What the identity server answers (fastify-setup.ts), closing as Fastify does.
      res.writeHead(413, { "content-type": "application/json", connection: "close" });
      res.end(
        JSON.stringify({
          error: {
            code: 413,
            status: "Payload Too Large",
            message: "The request body is too large",
          },
        }),
      );
    };
    if (req.url === "/always-413") return tooLarge();
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > bodyLimitBytes) {
        req.removeAllListeners("data");
        if (!res.headersSent) tooLarge();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (res.headersSent) return;
      received.push({
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ ok: true }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe("request bodies on the portal's pages", () => {
  let portal: PortalProcess;
  beforeAll(async () => {
    portal = await startPortalProcess();
  }, 60_000);
  afterAll(() => portal.stop());

  it("answers a 25 MB post 413 at once, without the portal's memory growing", async () => {
    // Warm up, so the first request's one-off allocations do not count.
    await sendBody(portal.port, "/theme", "theme=dark&return_to=/en/login");
    const before = portal.rss();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        upload(portal.port, "/theme", 25 * mib, { chunked: i % 2 === 1 }),
      ),
    );
    const after = portal.rss();
    for (const answer of answers) {
      expect(answer.status).toBe(413);
      expect(answer.body).toBe(`The request body exceeds the limit of ${bodyLimitBytes} bytes.`);
      // Generous for a busy 2-core machine; reading the body first took seconds.
      expect(answer.ms).toBeLessThan(5000);
    }
    // 250 MB were sent; the portal read none of it (it held 1 GB after 40 such posts before).
    expect(after - before).toBeLessThan(10 * mib);
  }, 60_000);

  it("answers 413 to a form with too many fields, and takes one within the limits", async () => {
    const fields = (count: number) =>
      [
        "theme=dark",
        "return_to=/en/login",
        ...Array.from({ length: count - 2 }, (_, i) => `f${i}=x`),
      ].join("&");
    const over = await sendBody(portal.port, "/theme", fields(fieldLimit + 1));
    expect(over.status).toBe(413);
    expect(over.body).toBe(`The form has more than ${fieldLimit} fields.`);

    const within = await sendBody(portal.port, "/theme", fields(fieldLimit));
    expect(within.status).toBe(302);
    expect(within.headers.location).toBe("/en/login");
    expect(within.headers["set-cookie"]).toEqual([expect.stringMatching(/^theme=dark;/)]);
  }, 60_000);

  it.each([
    ["JSON", "application/json", "{}", 415, "Only form posts are accepted here."],
    ["plain text", "text/plain", "theme=dark", 415, "Only form posts are accepted here."],
    ["no content type", "", "", 415, "Only form posts are accepted here."],
    [
      "a multipart body without a boundary",
      "multipart/form-data",
      "x",
      400,
      "The form could not be read.",
    ],
    [
      "a broken multipart body",
      "multipart/form-data; boundary=b",
      "--b\r\nx",
      400,
      "The form could not be read.",
    ],
  ])(
    "answers a post of %s to a page with a clear error, not 500",
    async (_name, type, body, status, reason) => {
      const answer = await sendBody(portal.port, "/theme", body, {
        "content-type": type,
        "content-length": String(Buffer.byteLength(body)),
      });
      expect(answer.status).toBe(status);
      expect(answer.body).toBe(reason);
    },
    60_000,
  );

  it("hands a chunked body within the limit to the action", async () => {
    const answer = await sendBody(portal.port, "/theme", "theme=dark&return_to=/es/login?flow=f1");
    expect(answer.status).toBe(302);
    expect(answer.headers.location).toBe("/es/login?flow=f1");
  }, 60_000);
});

describe("request bodies on the /api/kratos proxy", () => {
  let upstream: Upstream;
  let portal: PortalProcess;
  beforeAll(async () => {
    upstream = await startUpstream();
    portal = await startPortalProcess({ KRATOS_PUBLIC_URL: upstream.url });
  }, 60_000);
  afterAll(async () => {
    await portal.stop();
    await upstream.close();
  });

  it("passes a body within the limit on whole, with its length", async () => {
    const json = JSON.stringify({ method: "password", identifier: "a@example.com" });
    const answer = await sendBody(portal.port, "/api/kratos/self-service/login?flow=f1", json, {
      "content-type": "application/json",
    });
    expect(answer.status).toBe(200);
    const got = upstream.received.at(-1);
    expect(got?.path).toBe("/self-service/login?flow=f1");
    expect(got?.body).toBe(json);
    expect(got?.headers["content-length"]).toBe(String(Buffer.byteLength(json)));
    expect(got?.headers["transfer-encoding"]).toBeUndefined();
  }, 60_000);

  it("answers a 25 MB chunked body 413 in the identity service's shape, not 500", async () => {
    const seen = upstream.received.length;
    const answer = await upload(portal.port, "/api/kratos/self-service/login?flow=f1", 25 * mib, {
      chunked: true,
      headers: { "content-type": "application/json" },
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({
      error: {
        code: 413,
        status: "Payload Too Large",
        reason: `The request body exceeds the limit of ${bodyLimitBytes} bytes.`,
        message: "The request body is too large",
      },
    });
    expect(upstream.received.length).toBe(seen);
  }, 60_000);

  it("passes the identity service's own 413 through", async () => {
    const answer = await sendBody(portal.port, "/api/kratos/always-413", "{}", {
      "content-type": "application/json",
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: 413 } });
  }, 60_000);
});

describe("countFormFields", () => {
  it("counts URL-encoded pairs and multipart parts, and nothing else", () => {
    const form = "application/x-www-form-urlencoded";
    expect(countFormFields(form, Buffer.from(""))).toBe(0);
    expect(countFormFields(form, Buffer.from("a=1"))).toBe(1);
    expect(countFormFields(form, Buffer.from("a=1&b=2&&c"))).toBe(4);
    const multipart = 'multipart/form-data; boundary="XyZ"';
    const body =
      "--XyZ\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--XyZ\r\nContent-Disposition: form-data; name=b\r\n\r\n2\r\n--XyZ--\r\n";
    expect(countFormFields(multipart, Buffer.from(body))).toBe(2);
    expect(countFormFields("application/json", Buffer.from('{"a":1,"b":2}'))).toBe(0);
    expect(countFormFields("multipart/form-data", Buffer.from("x"))).toBe(0);
    expect(countFormFields('multipart/form-data; boundary=""', Buffer.from("x"))).toBe(0);
  });
});
