import { Writable } from "node:stream";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { chooseLogFormat, maskRecipient, prettyPrinter } from "./console-format.ts";

/** One line exactly as a service's pino logger writes it. */
function pinoLine(write: (logger: pino.Logger) => void): string {
  let line = "";
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      line += chunk.toString();
      done();
    },
  });
  write(pino({ base: { pid: 1, hostname: "vm" } }, sink));
  return line.trimEnd();
}

describe("the console's log format", () => {
  it("is JSON whenever LOG_FORMAT=json, a terminal included", () => {
    expect(chooseLogFormat({ LOG_FORMAT: "json" }, true)).toBe("json");
    expect(chooseLogFormat({ LOG_FORMAT: "pretty", NODE_ENV: "production" }, false)).toBe("pretty");
  });

  it("is pretty by default for a terminal or outside production, JSON for collected production output", () => {
    expect(chooseLogFormat({}, false)).toBe("pretty");
    expect(chooseLogFormat({ NODE_ENV: "production" }, true)).toBe("pretty");
    expect(chooseLogFormat({ NODE_ENV: "production" }, false)).toBe("json");
    expect(chooseLogFormat({ LOG_FORMAT: "", NODE_ENV: "production" }, false)).toBe("json");
  });

  it("refuses another value, naming the variable", () => {
    expect(() => chooseLogFormat({ LOG_FORMAT: "text" }, true)).toThrow(
      "LOG_FORMAT: must be pretty or json",
    );
  });
});

describe("a pretty console line", () => {
  const plain = prettyPrinter("identity-server", { colorize: false, mailboxUrl: undefined });

  it("is one line with the time, level, service and message, without pid and host", () => {
    const line = pinoLine((log) => log.info({ listener: "public" }, "Server listening"));
    const shown = plain(line);
    expect(shown).toMatch(
      /^\[\d\d:\d\d:\d\d\] INFO: identity-server Server listening \{"listener":"public"\}\n$/,
    );
    expect(shown).not.toContain('"pid"');
  });

  it("makes the portal's request log a request line", () => {
    const portal = prettyPrinter("portal", { colorize: false, mailboxUrl: undefined });
    const line = pinoLine((log) =>
      log.info({ correlationId: "c1", method: "GET", path: "/en/login", status: 200, ms: 12 }),
    );
    expect(portal(line)).toMatch(/INFO: portal GET \/en\/login 200 12 ms\n$/);
  });

  it("shows a request the identity server logs twice as one line when it completes", () => {
    const incoming = pinoLine((log) =>
      log.info(
        { reqId: "r1", req: { method: "GET", url: "/health/ready", remotePort: 41128 } },
        "incoming request",
      ),
    );
    const completed = pinoLine((log) =>
      log.info({ reqId: "r1", res: { statusCode: 200 }, responseTime: 5.49 }, "request completed"),
    );
    expect(plain(incoming)).toBe("");
    expect(plain(completed)).toMatch(/INFO: identity-server GET \/health\/ready 200 5 ms\n$/);
  });

  it("leaves what is not a log line as it came", () => {
    expect(plain("    at main (file.ts:1:1)")).toBe("    at main (file.ts:1:1)\n");
    expect(plain('{"not":"a log"}')).toBe('{"not":"a log"}\n');
  });

  it("points each message sent to the mailbox on a line of its own, without the code", () => {
    const withMailbox = prettyPrinter("identity-server", {
      colorize: false,
      mailboxUrl: "http://127.0.0.1:4436/",
    });
    const line = pinoLine((log) =>
      log.child({ component: "courier" }).info(
        {
          recipient: "alice@example.org",
          channel: "email",
          template_type: "recovery_code_valid",
        },
        "courier: message delivered to the local mailbox",
      ),
    );
    expect(withMailbox(line)).toBe(
      "✉  recovery code (email) sent to a…@example.org — open http://127.0.0.1:4436/\n",
    );
  });

  it("colours the mailbox line only for a terminal", () => {
    const coloured = prettyPrinter("identity-server", {
      colorize: true,
      mailboxUrl: "http://127.0.0.1:4436/",
    });
    const line = pinoLine((log) =>
      log.info(
        { recipient: "+34600000078", channel: "sms", template_type: "recovery_code_invalid" },
        "courier: message delivered to the local mailbox",
      ),
    );
    const shown = coloured(line);
    expect(shown).toContain("\u001b[1m");
    expect(shown).toContain("recovery code notice (no account) (text message) sent to +34…78");
  });
});

describe("a recipient on the console", () => {
  it("keeps the first letter and the domain of an address, the ends of a number", () => {
    expect(maskRecipient("alice@example.org")).toBe("a…@example.org");
    expect(maskRecipient("+34600000078")).toBe("+34…78");
    expect(maskRecipient("12345")).toBe("…");
  });
});
