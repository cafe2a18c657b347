import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startRoundRobinProxy, type RoundRobinProxy } from "./round-robin-proxy.ts";

type Seen = { name: string; peer: string | undefined; forwardedFor: string | undefined };

/** An upstream that answers with its name, the proxy's address and the X-Forwarded-For it got. */
async function upstream(name: string, opened: Server[]): Promise<string> {
  const server = createServer((req, res) => {
    const seen: Seen = {
      name,
      peer: req.socket.remoteAddress,
      forwardedFor: req.headers["x-forwarded-for"]?.toString(),
    };
    res.setHeader("set-cookie", [`a=${name}`, `b=${name}`]);
    res.end(JSON.stringify(seen));
  });
  opened.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("the round-robin proxy of the scale-out test", () => {
  const opened: Server[] = [];
  let proxy: RoundRobinProxy | undefined;

  afterEach(async () => {
    await proxy?.close();
    for (const server of opened.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("sends consecutive requests to alternate instances and names the browser in X-Forwarded-For", async () => {
    const upstreams = [await upstream("a", opened), await upstream("b", opened)];
    proxy = await startRoundRobinProxy({ upstreams, port: 0, localAddress: "127.0.0.2" });
    const seen: Seen[] = [];
    const cookies: string[][] = [];
    for (let index = 0; index < 4; index += 1) {
      // One keep-alive connection throughout: alternation is per request, not per connection.
      const response = await fetch(`${proxy.url.replace("localhost", "127.0.0.1")}/p${index}`, {
        headers: index === 3 ? { "x-forwarded-for": "203.0.113.9" } : {},
      });
      cookies.push(response.headers.getSetCookie());
      seen.push((await response.json()) as Seen);
    }
    expect(seen.map((entry) => entry.name)).toEqual(["a", "b", "a", "b"]);
    expect(seen.map((entry) => entry.peer)).toEqual(Array(4).fill("127.0.0.2"));
    expect(seen.map((entry) => entry.forwardedFor)).toEqual([
      "127.0.0.1",
      "127.0.0.1",
      "127.0.0.1",
      "203.0.113.9, 127.0.0.1",
    ]);
    expect(cookies[1]).toEqual(["a=b", "b=b"]);
    expect(proxy.counts()).toEqual([2, 2]);
    expect(proxy.requests.map((entry) => `${entry.upstream} ${entry.path}`)).toEqual([
      "0 /p0",
      "1 /p1",
      "0 /p2",
      "1 /p3",
    ]);
  });

  it("answers 502 when an instance cannot be reached", async () => {
    const gone = await upstream("gone", opened);
    const server = opened.pop();
    await new Promise((resolve) => server?.close(resolve));
    proxy = await startRoundRobinProxy({ upstreams: [gone], port: 0 });
    const response = await fetch(`${proxy.url.replace("localhost", "127.0.0.1")}/`);
    expect(response.status).toBe(502);
  });
});
