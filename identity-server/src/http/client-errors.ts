import { STATUS_CODES, type IncomingMessage, type Server } from "node:http";
import type { Duplex } from "node:stream";

// Requests Node's HTTP parser refuses (a bare CR in a header, headers over 16 KiB, a broken chunked
// body, a request target that is no path…) never reach a route. Node answers them with an empty
// 400 and Fastify with its own `{statusCode, error, message}`; these helpers answer them in the
// listener's error shape instead, then close the connection as Node does.

/** The status for a parser error: 431 for headers over the limit, 408 for a timeout, else 400. */
export function clientErrorStatus(error: Error & { code?: string }): number {
  if (error.code === "HPE_HEADER_OVERFLOW") return 431;
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") return 408;
  return 400;
}

/** A one-line description of the parser's complaint, safe to show to the client. */
export function clientErrorReason(error: Error & { code?: string }): string {
  const status = clientErrorStatus(error);
  if (status === 431) return "The request's header fields exceed the limit.";
  if (status === 408) return "The request was not received in time.";
  return `The HTTP request could not be parsed: ${error.message.replace(/[^\x20-\x7e]/g, "?")}`;
}

/** Writes a JSON answer straight to the socket of a request the parser refused, then closes it. */
export function answerClientError(
  socket: Duplex,
  error: Error & { code?: string },
  body: unknown,
): void {
  // A reset connection has nobody to answer (what Node and Fastify do too).
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  answerWithStatus(socket, clientErrorStatus(error), body);
}

function answerWithStatus(socket: Duplex, status: number, body: unknown): void {
  if (socket.writable) {
    const text = JSON.stringify(body);
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Error"}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy();
}

/**
 * Answers CONNECT requests 405 in the listener's error shape: Node hands them to a `connect`
 * listener and, without one, closes the connection without an answer.
 */
export function refuseConnect(server: Server, body: (status: number) => unknown): void {
  server.on("connect", (_request: IncomingMessage, socket: Duplex) => {
    answerWithStatus(socket, 405, body(405));
  });
}
