import { LoginFlowFromJSON, readIdentityAnswer } from "@portal/client";
import type { PortalLoginBody, UpdateLoginFlowBody } from "@portal/client";
import { data, redirect } from "react-router";
import { getConfig } from "../../config.server.ts";
import { noticeParam } from "../../flows/follow-outcome.server.ts";
import type { FlowRoute } from "../../flows/follow-outcome.server.ts";
import { flowReturnTo } from "../../flows/flow-return-to.server.ts";
import { browserSessionStatus, flowRoute } from "../../flows/flow-args.server.ts";
import type { FlowArgs } from "../../flows/flow-args.server.ts";
import { submitFlow } from "../../flows/submit-flow.server.ts";
import { loadFlowPage } from "../../flows/load-flow-page.server.ts";
import type { IdentityOutcome } from "../../flows/identity-outcome.ts";
import { isRecord } from "../../flows/node-guards.ts";
import { formToJson, stringField } from "../../flows/submission.ts";
import { setCookieHeaders } from "../../http/cookies.server.ts";
import { identityFor } from "../../http/identity.server.ts";
import { allowClientRedirects } from "../../http/oauth2-answer.server.ts";
import { redirectWithCookies } from "../../http/redirects.server.ts";
import { noticeFromQuery } from "../notice-query.ts";
import {
  continueAsField,
  continueAsOffer,
  readSession,
  submitContinueAs,
} from "./continue-as.server.ts";
import { flowAccount } from "./flow-account.ts";
import {
  accountCookieOptions,
  rememberAccount,
  rememberedAccount,
} from "./remembered-account.server.ts";

/** Parameters a replacement login flow inherits from the page URL. */
const inherited = ["return_to", "refresh", "aal", "login_challenge"] as const;

/** Fields the page adds for itself; the identity service never sees them. */
export const loginPortalFields = ["remember_me", continueAsField];

function loginRoute(args: FlowArgs, phase: FlowRoute["phase"]): FlowRoute {
  return flowRoute(args, "login", inherited, phase, { sessionStatus: browserSessionStatus(args) });
}

export async function loadLogin(args: FlowArgs) {
  const { frontend } = identityFor(args.request, args.context, args.locale);
  const query = args.url.searchParams;
  const page = await loadFlowPage({
    query,
    route: (phase) => loginRoute(args, phase),
    create: () =>
      readIdentityAnswer(() =>
        frontend.createBrowserLoginFlowRaw({
          refresh: query.get("refresh") === "true" ? true : undefined,
          aal: query.get("aal") ?? undefined,
          returnTo: query.get("return_to") ?? undefined,
          loginChallenge: query.get("login_challenge") ?? undefined,
        }),
      ),
    get: (id) => readIdentityAnswer(() => frontend.getLoginFlowRaw({ id })),
    refine: asksForVerification,
    carry: (params): Record<string, string> => (params.get("invalid") ? { invalid: "true" } : {}),
  });
  if (page instanceof Response) return page;
  const flow = LoginFlowFromJSON(page.flow);
  const challenge = flow.oauth2_login_challenge ?? undefined;
  const client = flow.oauth2_login_request?.client;
  // The no-JS sign-in post ends, through the OAuth2 service, at the client's redirect URI.
  if (challenge) allowClientRedirects(args.context, client?.redirect_uris);
  // Kratos forces refresh=true on every challenge Hydra cannot skip; without a session to
  // confirm, that is an ordinary sign-in (remember-me, create account), not "Confirm action".
  // With one, the person may continue as that account unless the application asked otherwise.
  const session =
    challenge !== undefined && flow.refresh === true ? await readSession(frontend) : undefined;
  const signedOut = challenge !== undefined && flow.refresh === true && !session;
  const continueAs = signedOut ? undefined : await continueAsOffer(args, flow, session);
  return data(
    {
      flow: signedOut ? { ...flow, refresh: false } : flow,
      continueAs,
      /** The account a refresh or second factor is for: the flow's, else the portal's own note. */
      account:
        flowAccount(flow) ??
        (flow.requested_aal === "aal2"
          ? rememberedAccount(args.request, accountCookieOptions(getConfig()))
          : undefined),
      notice: noticeFromQuery(query.get(noticeParam)),
      invalid: query.has("invalid"),
      confirmCreateAccount: query.get("confirm") === "create-account",
      /** The OAuth2 client the sign-in is for (spec §2: "Sign in to continue to {client}"). */
      client: client?.client_name || client?.client_id || undefined,
      registration: registrationQuery(flow.return_to, challenge),
    },
    { headers: setCookieHeaders(page.setCookies) },
  );
}

/** The query of the create-account links: the flow's return_to and its OAuth2 login challenge. */
export function registrationQuery(returnTo: string | undefined, challenge: string | undefined) {
  const query = new URLSearchParams();
  if (returnTo) query.set("return_to", returnTo);
  if (challenge) query.set("login_challenge", challenge);
  const text = query.toString();
  return text ? `?${text}` : "";
}

export async function submitLogin(args: FlowArgs) {
  const flowId = args.url.searchParams.get("flow");
  if (!flowId) return redirect(`/${args.locale}/login`);
  const form = await args.request.formData();
  if (form.has(continueAsField)) return submitContinueAs(args, flowId, form);
  const body = toLoginBody(formToJson(form, loginPortalFields));
  if (!body) return data({ notice: "notice.somethingWentWrong" as const }, { status: 400 });

  const { selfService } = identityFor(args.request, args.context, args.locale);
  // Set-Cookie of the answer (session, ory_trusted_device) reaches the browser on every path.
  return submitFlow({
    route: loginRoute(args, "submit"),
    send: () => readIdentityAnswer(() => selfService.updateLoginFlowRaw({ flow: flowId, body })),
    refine: asksForVerification,
    cookies: (answer) => withRememberedAccount(body, answer.setCookies),
    render: (flow) => ({ flow: LoginFlowFromJSON(flow) }),
    success: async (setCookies) => {
      const { frontend: reader } = identityFor(args.request, args.context);
      const returnTo = await flowReturnTo(() => reader.getLoginFlowRaw({ id: flowId }));
      return redirectWithCookies(returnTo ?? `/${args.locale}`, setCookies, {
        document: returnTo !== undefined,
      });
    },
  });
}

/**
 * The answer's cookies, plus the portal's note of the account when the answer set a session
 * for the identifier just posted (the second-factor screen names it; see remembered-account).
 */
function withRememberedAccount(body: PortalLoginBody, setCookies: readonly string[]) {
  const identifier = "identifier" in body ? body.identifier : undefined;
  if (!identifier) return setCookies;
  const remembered = rememberAccount(identifier, setCookies, accountCookieOptions(getConfig()));
  return remembered === undefined ? setCookies : [...setCookies, remembered];
}

/** Kratos' legacy answer to an unverified sign-in: the login flow carrying message 4000010. */
const accountNotVerified = 4000010;

/** Spec §4: a login flow that says the address is not verified yet leads to /verification. */
function asksForVerification(outcome: IdentityOutcome): IdentityOutcome {
  if (outcome.kind !== "flow") return outcome;
  const messages = outcome.flow.ui.messages;
  const unverified =
    Array.isArray(messages) &&
    messages.some((message) => isRecord(message) && message.id === accountNotVerified);
  return unverified ? { kind: "verify-address" } : outcome;
}

/**
 * The body for the chosen method, in the SDK's typed shape, from the posted fields (the clicked
 * button's name=value among them). A method the portal cannot complete (WebAuthn needs
 * scripts the portal never runs) is refused here rather than sent half-formed.
 */
export function toLoginBody(fields: Record<string, unknown>): PortalLoginBody | undefined {
  const body = methodBody(fields);
  if (!body) return undefined;
  // The identity service's checkbox (spec §3 trusted device): posted only when ticked.
  return stringField(fields, "trust_device") === "true" ? { ...body, trust_device: true } : body;
}

function methodBody(fields: Record<string, unknown>): UpdateLoginFlowBody | undefined {
  const csrf = stringField(fields, "csrf_token");
  const text = (name: string) => (stringField(fields, name) ?? "").trim();
  const method = stringField(fields, "method");
  // "Send code to <address>" buttons post only address=…; the code form posts method=code.
  if (method === "code" || (method === undefined && stringField(fields, "address"))) {
    const base = { method: "code" as const, csrf_token: csrf ?? "" };
    const resend = stringField(fields, "resend");
    if (resend) return { ...base, resend, identifier: text("identifier") };
    const address = stringField(fields, "address");
    if (address) return { ...base, address };
    return { ...base, code: text("code"), identifier: text("identifier") };
  }
  switch (method) {
    case "password":
      return {
        method,
        identifier: text("identifier"),
        password: stringField(fields, "password") ?? "",
        csrf_token: csrf,
      };
    case "totp":
      return { method, totp_code: text("totp_code"), csrf_token: csrf };
    case "lookup_secret":
      return { method, lookup_secret: text("lookup_secret"), csrf_token: csrf };
    default:
      return undefined;
  }
}
