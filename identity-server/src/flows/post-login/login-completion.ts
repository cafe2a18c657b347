import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../../context.ts";
import type { FlowBody } from "../../http/flow-body.ts";
import type { Identity } from "../../identity/identity.ts";
import type { ActiveSession } from "../../session/session-manager.ts";
import type { AuthenticationMethod, Session } from "../../session/session.ts";
import type { Flow } from "../../selfservice/flow.ts";

/** The factor a login strategy just verified, as it goes into the session's AMR. */
type CompletedFactor = Pick<AuthenticationMethod, "method" | "aal">;

/** What every post-login hook is handed: the request, the flow, and what was just verified. */
export interface LoginCompletion {
  ctx: ServerContext;
  request: FastifyRequest;
  reply: FastifyReply;
  flow: Flow;
  /** The submission, read once by the flow. */
  body: FlowBody;
  /** Who signed in. */
  identity: Identity;
  /** The session the request came with, if any (a second factor or a refresh adds to it). */
  existing: ActiveSession | undefined;
  factor: CompletedFactor;
  /** One instant for the whole completion: the session, its AMR entries and the stored flow. */
  now: Date;
}

/** The session a login ends with, and whether it is the request's own session carried on. */
export interface LoginSession {
  session: Session;
  token: string;
  reused: boolean;
}
