import { LoginFlowFromJSON } from "@portal/client";
import { data, redirect } from "react-router";
import { getConfig } from "../../config.server.ts";
import { flowReturnTo } from "../../flows/flow-return-to.server.ts";
import { sessionChecked } from "../../flows/flow-args.server.ts";
import type { FlowArgs, FlowPageRoute } from "../../flows/flow-args.server.ts";
import { submitFlow } from "../../flows/submit-flow.server.ts";
import { loadFlowPage } from "../../flows/load-flow-page.server.ts";
import type { IdentityOutcome } from "../../flows/identity-outcome.ts";
import { isRecord } from "../../flows/node-guards.ts";
import { forwardedForm } from "../../flows/forwarded-form.ts";
import { stringField } from "../../flows/submission.ts";
import { setCookieHeaders } from "../../http/cookies.server.ts";
import { identityFor } from "../../http/identity.server.ts";
import { allowClientRedirects } from "../../http/oauth2-answer.server.ts";
import { redirectWithCookies } from "../../http/redirects.server.ts";
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
} from "../../session/remembered-account.server.ts";

/** The login page: a replacement flow inherits these parameters from the page URL. */
const loginRoute: FlowPageRoute = {
  page: "login",
  keep: ["return_to", "refresh", "aal", "login_challenge"],
  rules: sessionChecked,
};

/** Fields the page adds for itself; the identity service never sees them. */
const loginPortalFields = ["remember_me", continueAsField];

export async function loadLogin(args: FlowArgs) {
  const { frontend } = identityFor(args.request, args.context, args.locale);
  const query = args.url.searchParams;
  const page = await loadFlowPage(args, frontend, loginRoute, {
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
      notice: page.notice,
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
function registrationQuery(returnTo: string | undefined, challenge: string | undefined) {
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
  // The identity service decides by `method` what the post is for, as with Kratos' own UIs.
  const body = forwardedForm(form, loginPortalFields);

  const { selfService } = identityFor(args.request, args.context, args.locale);
  // Set-Cookie of the answer (session, ory_trusted_device) reaches the browser on every path.
  return submitFlow({
    args,
    route: loginRoute,
    send: () => selfService.updateLoginFlowRaw({ flow: flowId, body }),
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
function withRememberedAccount(body: Record<string, unknown>, setCookies: readonly string[]) {
  const identifier = stringField(body, "identifier");
  // Only the first factors sign in as the identifier; on a second factor's post it names nobody.
  if (!identifier || !firstFactorMethods.has(stringField(body, "method") ?? "")) return setCookies;
  const remembered = rememberAccount(identifier, setCookies, accountCookieOptions(getConfig()));
  return remembered === undefined ? setCookies : [...setCookies, remembered];
}

const firstFactorMethods = new Set(["password", "code"]);

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
