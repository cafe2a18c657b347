import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A stand-in identity service on a free loopback port, for tests of the real portal server. */
export interface StandInService {
  url: string;
  /** Every request's URL (path and query), in arrival order. */
  urls: string[];
  close(): Promise<void>;
}

/** Starts a server answering each request with `answer`, recording the URLs asked for. */
export async function startStandInService(
  answer: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<StandInService> {
  const urls: string[] = [];
  const server = createServer((req, res) => {
    urls.push(req.url ?? "");
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    urls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
