import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { get, type IncomingMessage } from "node:http";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  killChildServers,
  startChildServer,
  type ChildServer,
} from "../test-support/child-server.ts";

const dataDir = mkdtempSync(path.join(tmpdir(), "oauth2-shutdown-"));
afterAll(() => {
  killChildServers();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Reads from the socket until `done(text)` holds or it closes; resolves with what it read. */
async function readUntil(socket: Socket, done: (text: string) => boolean): Promise<string> {
  let text = "";
  socket.setEncoding("utf8");
  return new Promise((resolve) => {
    const check = () => {
      if (done(text)) finish();
    };
    const finish = () => {
      socket.off("data", onData);
      socket.off("close", finish);
      resolve(text);
    };
    const onData = (chunk: string) => {
      text += chunk;
      check();
    };
    socket.on("data", onData);
    socket.once("close", finish);
  });
}

/**
 * GET /health/ready on a connection of its own: a pooled keep-alive connection may be the idle
 * one the drain is closing just then (a balancer retries that; the test should not have to).
 */
async function readyStatus(url: string): Promise<number> {
  const request = get(`${url}/health/ready`, { agent: false });
  const [response] = (await once(request, "response")) as [IncomingMessage];
  response.resume();
  return response.statusCode ?? 0;
}

/** Polls readiness (each answer is a round trip; no timer) until it is 503, at most 200 times. */
async function becomesUnready(url: string): Promise<boolean> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if ((await readyStatus(url)) === 503) return true;
  }
  return false;
}

describe("SIGTERM with a token request in flight", () => {
  it("turns readiness 503, lets the token request finish, then exits", async () => {
    const server: ChildServer = await startChildServer(dataDir, {
      IDENTITY_OAUTH2_ENABLED: "true",
      IDENTITY_OAUTH2_PUBLIC_PORT: "0",
      IDENTITY_OAUTH2_ADMIN_PORT: "0",
      IDENTITY_SHUTDOWN_GRACE: "60s",
    });
    const oauth2 = server.oauth2PublicUrl;
    if (!oauth2) throw new Error("the OAuth2 service did not start");
    expect(await readyStatus(oauth2)).toBe(200);

    // A token request whose body is still on its way: `Expect: 100-continue` makes the server
    // say when it has the request (its headers parsed, the handler called).
    const body = "grant_type=authorization_code&code=abc&client_id=unknown-client";
    const { hostname, port } = new URL(oauth2);
    const socket = connect(Number(port), hostname);
    await once(socket, "connect");
    socket.write(
      "POST /oauth2/token HTTP/1.1\r\n" +
        `Host: ${hostname}:${port}\r\n` +
        "Content-Type: application/x-www-form-urlencoded\r\n" +
        `Content-Length: ${body.length}\r\n` +
        "Expect: 100-continue\r\n\r\n",
    );
    const interim = await readUntil(socket, (text) => text.includes("\r\n\r\n"));
    expect(interim).toMatch(/^HTTP\/1\.1 100 Continue/);

    server.child.kill("SIGTERM");
    // From the start of the shutdown both services say they are not ready, still answering.
    expect(await becomesUnready(oauth2)).toBe(true);
    expect(await readyStatus(server.publicUrl)).toBe(503);
    expect(server.child.exitCode).toBeNull();

    // The rest of the body: the token endpoint answers it in full (Hydra's error for an unknown
    // client), on a connection the server then closes.
    socket.write(body);
    const answer = await readUntil(socket, (text) => /\r\n\r\n[\s\S]*\}$/.test(text));
    expect(answer).toMatch(/^HTTP\/1\.1 (400|401) /);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(answer).toContain('"error":"invalid_client"');
    socket.destroy();

    await server.exited;
    expect(server.child.exitCode).toBe(0);
  });
});
