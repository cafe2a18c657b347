import { connect } from "node:net";

/** A request written byte for byte: nothing is normalized, encoded or refused on the client side. */
export interface RawRequest {
  method: string;
  /** The request target exactly as sent (`/a/../b?x=%zz` stays as it is). */
  target: string;
  headers: [string, string][];
  body?: string | Buffer;
  /** Sends `Transfer-Encoding: chunked` (the body as one chunk) instead of `Content-Length`. */
  chunked?: boolean;
}

export interface RawResponse {
  /** 0 when the connection ended without an answer. */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Set when the socket failed before an answer came. */
  error?: string;
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  while (offset < data.length) {
    const lineEnd = data.indexOf("\r\n", offset);
    if (lineEnd < 0) break;
    const size = Number.parseInt(data.subarray(offset, lineEnd).toString("latin1"), 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

function parseResponse(data: Buffer): RawResponse {
  const headerEnd = data.indexOf("\r\n\r\n");
  if (headerEnd < 0) return { status: 0, headers: {}, body: data.toString("utf8") };
  const [statusLine = "", ...lines] = data.subarray(0, headerEnd).toString("latin1").split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon > 0)
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = data.subarray(headerEnd + 4);
  // Only the first answer counts: a smuggled second request (CR/LF in a header) gets its own.
  const length = Number(headers["content-length"] ?? Number.NaN);
  const body = headers["transfer-encoding"]?.includes("chunked")
    ? dechunk(rest)
    : Number.isInteger(length)
      ? rest.subarray(0, length)
      : rest;
  return { status, headers, body: body.toString("utf8") };
}

/**
 * Sends one request over a fresh connection (`Connection: close`) and reads the whole answer. A
 * server that answers before the body is fully written (413) may reset the connection; what it
 * answered still counts.
 */
export function rawRequest(
  port: number,
  request: RawRequest,
  timeoutMs = 15_000,
): Promise<RawResponse> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const response = parseResponse(Buffer.concat(chunks));
      resolve(response.status === 0 && error ? { ...response, error } : response);
    };
    const timer = setTimeout(() => finish(`no answer within ${timeoutMs} ms`), timeoutMs);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("end", () => finish());
    socket.on("close", () => finish("connection closed"));
    socket.on("error", (error) => finish(error.message));
    socket.on("connect", () => {
      const body =
        request.body === undefined
          ? undefined
          : Buffer.isBuffer(request.body)
            ? request.body
            : Buffer.from(request.body, "utf8");
      const head = [`${request.method} ${request.target} HTTP/1.1`, `Host: 127.0.0.1:${port}`];
      head.push("Connection: close");
      for (const [name, value] of request.headers) head.push(`${name}: ${value}`);
      if (body !== undefined && request.chunked) head.push("Transfer-Encoding: chunked");
      else if (body !== undefined) head.push(`Content-Length: ${body.length}`);
      socket.write(Buffer.from(`${head.join("\r\n")}\r\n\r\n`, "utf8"));
      if (body !== undefined && request.chunked) {
        if (body.length > 0) {
          socket.write(`${body.length.toString(16)}\r\n`);
          socket.write(body);
          socket.write("\r\n");
        }
        socket.write("0\r\n\r\n");
      } else if (body !== undefined) socket.write(body);
    });
  });
}
