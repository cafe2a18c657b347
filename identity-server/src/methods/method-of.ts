import type { FastifyRequest } from "fastify";
import { decodeFlowBody } from "../http/flow-body.ts";

/** The submitted `method` — how Kratos picks the strategy responsible for a submission. */
export async function submittedMethod(request: FastifyRequest): Promise<string | undefined> {
  const body = await decodeFlowBody(request, [{ name: "method", type: "string" }]);
  return typeof body.method === "string" ? body.method : undefined;
}
