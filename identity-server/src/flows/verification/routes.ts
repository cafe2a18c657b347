import type { FastifyInstance } from "fastify";
import { registerFlowRoutes } from "../register-flow-routes.ts";
import type { ServerContext } from "../../context.ts";
import { sendError } from "../../http/send-error.ts";
import { uiUrl } from "../flow-errors.ts";
import { flowJson } from "../../selfservice/flow.ts";
import { sendRedirectOrJson } from "../flow-responses.ts";
import { verificationFlows } from "./flow.ts";
import { startCodeFlow } from "../code-flow.ts";
import { submitVerification } from "./submit.ts";

export function registerVerificationRoutes(app: FastifyInstance, ctx: ServerContext): void {
  registerFlowRoutes(app, ctx, "verification", {
    async browser(request, reply) {
      try {
        const flow = await startCodeFlow(ctx, request, reply, verificationFlows, "browser");
        return sendRedirectOrJson(request, reply, flow, uiUrl(ctx, "/verification", flow.id));
      } catch (error) {
        return sendError(reply, error);
      }
    },
    async api(request, reply) {
      try {
        const flow = await startCodeFlow(ctx, request, reply, verificationFlows, "api");
        return reply.send(flowJson(flow));
      } catch (error) {
        return sendError(reply, error);
      }
    },
    submit: (request, reply) => submitVerification(ctx, request, reply),
  });
}
