import { UNSAFE_ErrorResponseImpl as ErrorResponse } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { handleError } from "./entry.server.tsx";

const context = () => ({
  request: new Request("http://portal.test/en/login", { method: "OPTIONS" }),
  params: {},
  context: {} as never,
});

describe("handleError (what reaches the server log)", () => {
  afterEach(() => vi.restoreAllMocks());

  it("keeps a client's mistake out of the log: a 405 for OPTIONS on a page, a 404, a refused cross-origin post", () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const wrongMethod = new Error('Invalid request method "OPTIONS"');
    handleError(new ErrorResponse(405, "Method Not Allowed", wrongMethod, true), context());
    handleError(new ErrorResponse(404, "Not Found", null), context());
    handleError(
      new Error(
        "The `request.url` origin does not match `origin` header from a forwarded action request. Aborting the action.",
      ),
      context(),
    );
    expect(logged).not.toHaveBeenCalled();
  });

  it("logs what failed on the server, with its stack", () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const failure = new Error("identity service answered something unreadable");
    handleError(failure, context());
    handleError(new ErrorResponse(502, "Bad Gateway", null), context());
    expect(logged).toHaveBeenCalledWith(failure);
    expect(logged).toHaveBeenCalledTimes(2);
  });
});
