import { STATUS_CODES, type IncomingMessage, type ServerResponse } from "node:http";

/** The identity server's limit too (identity-server/src/http/fastify-setup.ts). */
export const bodyLimitBytes = 64 * 1024;
/** The portal's largest form (settings) has a few dozen fields; body-parser allows 1000. */
export const fieldLimit = 256;

interface BodyLimits {
  maxBytes: number;
  maxFields: number;
  /**
   * Requests whose body must be a form that parses (the pages' actions all call
   * `request.formData()`, which throws on anything else and turned bad input into a 500).
   */
  formOnly: (req: IncomingMessage) => boolean;
}

type BodyOutcome =
  { ok: true; body: Buffer | undefined } | { ok: false; status: 400 | 413; reason: string };

/** The body of a request, read into memory only after it was checked against the limits. */
const bodies = new WeakMap<IncomingMessage, Buffer>();

/** The body `limitBodies` read, for the handler after it (the stream itself is used up). */
export function bufferedBody(req: IncomingMessage): Buffer | undefined {
  return bodies.get(req);
}

/**
 * Reads the body of a request up to `maxBytes`. A declared Content-Length over the limit is
 * refused before a byte is read; a chunked body is counted as it arrives and refused as soon as it
 * passes the limit, so at most `maxBytes` (plus one chunk) is ever held. Requests without a body
 * (no Content-Length, no Transfer-Encoding) resolve at once with `undefined`.
 */
function readBoundedBody(req: IncomingMessage, maxBytes: number): Promise<BodyOutcome> {
  const declared = req.headers["content-length"];
  const chunked = req.headers["transfer-encoding"] !== undefined;
  if (!chunked && (declared === undefined || declared === "0")) {
    return Promise.resolve({ ok: true, body: undefined });
  }
  if (!chunked && Number(declared) > maxBytes) return Promise.resolve(tooLarge(maxBytes));

  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const settle = (outcome: BodyOutcome) => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onFailure);
      req.off("close", onFailure);
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) {
        settle(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => settle({ ok: true, body: Buffer.concat(chunks, received) });
    // A broken chunked encoding, or the client gone before the end.
    const onFailure = () =>
      settle({ ok: false, status: 400, reason: "The request body could not be read." });
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", onFailure);
    req.once("close", onFailure);
  });
}

function tooLarge(maxBytes: number): BodyOutcome {
  return {
    ok: false,
    status: 413,
    reason: `The request body exceeds the limit of ${maxBytes} bytes.`,
  };
}

/**
 * How many fields a form body holds: `&`-separated pairs for URL-encoded bodies, parts for
 * multipart ones, 0 for any other type. Counted on the raw bytes, before anything is decoded.
 */
export function countFormFields(contentType: string | undefined, body: Buffer): number {
  const type = (contentType ?? "").toLowerCase();
  if (type.startsWith("application/x-www-form-urlencoded")) {
    if (body.length === 0) return 0;
    let count = 1;
    for (let at = body.indexOf(0x26); at !== -1; at = body.indexOf(0x26, at + 1)) count += 1;
    return count;
  }
  if (type.startsWith("multipart/form-data")) {
    const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? "");
    const name = boundary?.[1] ?? boundary?.[2];
    // No boundary, no parts (and an empty delimiter would be found everywhere, for ever).
    if (!name) return 0;
    const delimiter = `--${name}`;
    let count = 0;
    for (let at = body.indexOf(delimiter); at !== -1; at = body.indexOf(delimiter, at + 1)) {
      count += 1;
    }
    // The last delimiter closes the body.
    return Math.max(0, count - 1);
  }
  return 0;
}

/**
 * How long a refused client gets to read the answer before its connection is closed. Closing at
 * once, with its upload still arriving, makes the kernel send a reset, and a client still
 * uploading then sees EPIPE instead of the 413; reading on would cost the portal the upload.
 */
const lingerMs = 2000;

interface Refusal {
  status: 400 | 413 | 415;
  reason: string;
}

/** The answer to a refused request: its content type and body (and a chance to log it). */
type AnswerRefusal = (
  req: IncomingMessage,
  res: ServerResponse,
  refusal: Refusal,
) => { contentType: string; body: string };

/**
 * Express middleware: reads the body within the limits and keeps it for the handler after it
 * (`bufferedBody`), or answers through `answer` and closes the connection, so a client cannot
 * make the portal hold more than `maxBytes` per request nor parse more than `maxFields` fields.
 */
export function limitBodies(limits: BodyLimits, answer: AnswerRefusal) {
  return (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => {
    readBoundedBody(req, limits.maxBytes).then(async (outcome) => {
      if (!outcome.ok) return answerAndClose(req, res, outcome, answer);
      const contentType = req.headers["content-type"];
      const body = outcome.body ?? Buffer.alloc(0);
      if (countFormFields(contentType, body) > limits.maxFields) {
        const reason = `The form has more than ${limits.maxFields} fields.`;
        return answerAndClose(req, res, { status: 413, reason }, answer);
      }
      // Posts (with or without a body) go to actions, which read them as forms.
      const posted = !["GET", "HEAD", "OPTIONS"].includes(req.method ?? "GET");
      if (posted && limits.formOnly(req)) {
        const refusal = await formRefusal(contentType, body);
        if (refusal) return answerAndClose(req, res, refusal, answer);
      }
      if (outcome.body !== undefined) bodies.set(req, outcome.body);
      next();
    }, next);
  };
}

/** Why a body is no form `request.formData()` can read, if it is not. */
async function formRefusal(
  contentType: string | undefined,
  body: Buffer,
): Promise<Refusal | undefined> {
  const type = (contentType ?? "").toLowerCase();
  if (
    !type.startsWith("application/x-www-form-urlencoded") &&
    !type.startsWith("multipart/form-data")
  ) {
    return { status: 415, reason: "Only form posts are accepted here." };
  }
  try {
    // Parsed once here (≤ 64 KiB, ≤ 256 fields) so that the action's own parse cannot fail.
    await new Response(new Uint8Array(body), { headers: { "content-type": type } }).formData();
    return undefined;
  } catch {
    return { status: 400, reason: "The form could not be read." };
  }
}

/**
 * Answers straight on the socket and reads nothing more. Once the request's small buffer is full,
 * Node stops reading the socket and the client's upload stalls in the kernel's buffers, which cost
 * the portal nothing; the connection is half-closed after the answer and dropped when the client
 * closes its end, or after `lingerMs`. Not through `res`: for a finished answer with
 * `Connection: close` Node drops the socket at once, with the reset described at `lingerMs`.
 */
function answerAndClose(
  req: IncomingMessage,
  res: ServerResponse,
  refusal: Refusal,
  answer: AnswerRefusal,
): void {
  req.pause();
  const { contentType, body } = answer(req, res, refusal);
  const lines = [`HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ""}`];
  // What earlier middleware set (the correlation id).
  for (const [name, value] of Object.entries(res.getHeaders())) {
    for (const one of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${one}`);
  }
  lines.push(
    `Content-Type: ${contentType}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: close",
  );
  const socket = req.socket;
  socket.end(`${lines.join("\r\n")}\r\n\r\n${body}`);
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
}
