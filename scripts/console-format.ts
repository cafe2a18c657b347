// How `npm start` shows what the three services log. The services always write pino's JSON lines
// (what a log collector reads); scripts/start-all.ts passes them on unchanged with LOG_FORMAT=json
// and otherwise turns each into one readable line here: time, level, service, message.
import { createRequire } from "node:module";
import { styleText } from "node:util";
import { z } from "zod";

// pino-pretty is a dev dependency: loaded only when lines are made readable, so that
// `npm run start:prod` (JSON lines) runs on a production install.
const loadPinoPretty = () =>
  createRequire(import.meta.url)("pino-pretty") as typeof import("pino-pretty");

export type LogFormat = "pretty" | "json";

const logFormatSchema = z.enum(["pretty", "json"]).optional();

/**
 * LOG_FORMAT when set; else pretty for a person (a terminal, or anything but production) and
 * JSON where a production run's output is collected.
 */
export function chooseLogFormat(
  env: Record<string, string | undefined>,
  stdoutIsTerminal: boolean,
): LogFormat {
  // An empty variable means "not set", as for every other variable.
  const parsed = logFormatSchema.safeParse(env.LOG_FORMAT || undefined);
  if (!parsed.success) {
    throw new Error("Invalid start-up configuration — LOG_FORMAT: must be pretty or json");
  }
  if (parsed.data) return parsed.data;
  return stdoutIsTerminal || env.NODE_ENV !== "production" ? "pretty" : "json";
}

export interface PrettyOptions {
  /** Colours (a terminal): level colours, a highlighted line per message sent. */
  colorize: boolean;
  /** The embedded mailbox's page, named on the line of each message it received. */
  mailboxUrl: string | undefined;
}

/** The embedded courier's line for a message stored in the mailbox (identity server). */
const mailboxDelivery = "courier: message delivered to the local mailbox";

/**
 * A function that turns one line a service printed into what the console shows: pino JSON as one
 * readable line, anything else (a stack trace, a plain message) as it came.
 */
export function prettyPrinter(service: string, options: PrettyOptions): (line: string) => string {
  const label = options.colorize ? styleText("bold", service, { validateStream: false }) : service;
  const pretty = loadPinoPretty().prettyFactory({
    colorize: options.colorize,
    singleLine: true,
    translateTime: "SYS:HH:MM:ss",
    // Who and where come first on the line; the portal's request fields make its message.
    ignore: "pid,hostname,service,correlationId,method,path,status,ms,reqId,req,res,responseTime",
    messageFormat: (log, messageKey) => `${label} ${messageOf(log, messageKey)}`,
  });
  const requests = fastifyRequests();
  return (line) => {
    const log = parseLog(line);
    if (!log) return `${line}\n`;
    if (log.msg === mailboxDelivery && options.mailboxUrl) {
      return mailboxLine(log, options.mailboxUrl, options.colorize);
    }
    const request = requests(log);
    if (request === null) return "";
    return pretty(request ? { ...log, msg: request } : log);
  };
}

function parseLog(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null && "level" in value ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Fastify (identity server, demo) logs a request twice, "incoming request" with the method and
 * URL (its query already redacted by the service) and "request completed" with the status: the
 * console shows one line, "GET /health/ready 200 5 ms", when it completes. null: nothing to show
 * yet; undefined: not a request log.
 */
function fastifyRequests(): (log: Record<string, unknown>) => string | null | undefined {
  const started = new Map<string, string>();
  return (log) => {
    const id = textOf(log.reqId);
    if (!id) return undefined;
    const req = log.req as { method?: unknown; url?: unknown } | undefined;
    if (log.msg === "incoming request" && req) {
      started.set(id, `${textOf(req.method)} ${textOf(req.url)}`);
      // A request that never completes (its connection dropped) is not remembered for ever.
      if (started.size > 1000) started.delete(started.keys().next().value ?? "");
      return null;
    }
    const res = log.res as { statusCode?: unknown } | undefined;
    const request = started.get(id);
    if (log.msg !== "request completed" || !res || request === undefined) return undefined;
    started.delete(id);
    const ms = typeof log.responseTime === "number" ? ` ${Math.round(log.responseTime)} ms` : "";
    return `${request} ${textOf(res.statusCode)}${ms}`;
  };
}

/** The portal's request line (no message, the request's fields) as "GET /en/login 200 12 ms". */
function messageOf(log: Record<string, unknown>, messageKey: string): string {
  const message = log[messageKey];
  if (typeof message === "string") return message;
  if (typeof log.method === "string" && typeof log.path === "string") {
    const ms = typeof log.ms === "number" ? ` ${log.ms} ms` : "";
    return `${log.method} ${log.path} ${textOf(log.status)}${ms}`;
  }
  return "";
}

/**
 * One line that stands out: which message went to whom, and where to read it. Never the code:
 * the service does not log it (a log is read by more people than the loopback mailbox, and a code
 * is a way into the account), and the mailbox is one click away.
 */
function mailboxLine(log: Record<string, unknown>, mailboxUrl: string, colorize: boolean): string {
  // Kratos' template names: recovery_code_valid is the code, recovery_code_invalid the notice
  // sent to an address no account has.
  const template = textOf(log.template_type) || "message";
  const what = template.endsWith("_invalid")
    ? `${template.slice(0, -"_invalid".length).replaceAll("_", " ")} notice (no account)`
    : template.replace(/_valid$/, "").replaceAll("_", " ");
  const channel = log.channel === "sms" ? "text message" : "email";
  const to = maskRecipient(textOf(log.recipient));
  const text = `✉  ${what} (${channel}) sent to ${to} — open ${mailboxUrl}`;
  return `${colorize ? styleText(["bold", "cyan"], text, { validateStream: false }) : text}\n`;
}

function textOf(value: unknown): string {
  return typeof value === "string" || typeof value === "number" ? String(value) : "";
}

/** a…@example.org, +34…78: enough to tell addresses apart on a shared screen. */
export function maskRecipient(recipient: string): string {
  const at = recipient.lastIndexOf("@");
  if (at > 0) return `${recipient.slice(0, 1)}…${recipient.slice(at)}`;
  if (recipient.length > 6) return `${recipient.slice(0, 3)}…${recipient.slice(-2)}`;
  return "…";
}
