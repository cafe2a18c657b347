import { SettingsFlowFromJSON, readIdentityAnswer } from "@portal/client";
import { data, redirect } from "react-router";
import { followOutcome, flowPageUrl } from "../../flows/follow-outcome.server.ts";
import { classifyIdentityAnswer } from "../../flows/identity-outcome.ts";
import { flowRoute } from "../../flows/flow-args.server.ts";
import type { FlowArgs, FlowPageRoute, FlowRouteRules } from "../../flows/flow-args.server.ts";
import { submitFlow } from "../../flows/submit-flow.server.ts";
import { loadFlowPage } from "../../flows/load-flow-page.server.ts";
import type { FlowShape } from "../../flows/identity-outcome.ts";
import { isRecord } from "../../flows/node-guards.ts";
import { forwardedForm } from "../../flows/forwarded-form.ts";
import { stringField } from "../../flows/submission.ts";
import type { FieldErrors } from "../../flows/use-live-errors.ts";
import { setCookieHeaders } from "../../http/cookies.server.ts";
import { identityFor } from "../../http/identity.server.ts";
import { absolutePortalUrl } from "../../http/portal-destination.server.ts";
import { redirectWithCookies } from "../../http/redirects.server.ts";
import { sessionEntropy } from "../../http/session-entropy.server.ts";
import { toE164 } from "../../ui/phone/phone-number.server.ts";
import { askFirst } from "./confirmation.server.ts";
import { settingsCardsReady } from "./cards/index.ts";
import { confirmField } from "./confirmations.ts";
import { settingsGroup } from "./settings-group.ts";
import { intentField, sessionIdField } from "./sessions.ts";
import { isAmbiguousSettingsPost } from "./single-action.ts";
import { loadSessions, submitSessionIntent } from "./sessions.server.ts";
import { describeListedDevices } from "./devices/device-info.server.ts";
import { checkPasswordChange, passwordFields, phoneMessages } from "./settings-rules.ts";

const settingsRoute: FlowPageRoute = { page: "settings", keep: ["return_to"], rules: signInFirst };

/** Fields the page adds for itself (confirmations, the sessions card); never forwarded. */
const settingsPortalFields = [passwordFields.confirm, confirmField, intentField, sessionIdField];

/** Spec §6: without a session the user signs in first and comes back here. */
function signInFirst(args: FlowArgs): FlowRouteRules {
  const returnTo = args.url.searchParams.get("return_to");
  const here = `/${args.locale}/settings${returnTo ? `?return_to=${encodeURIComponent(returnTo)}` : ""}`;
  return { returnAfterLogin: absolutePortalUrl(here) };
}

export async function loadSettings(args: FlowArgs) {
  // The cards render in the server's shell from the modules it holds (cards/lazy-card.tsx).
  await settingsCardsReady;
  const { frontend } = identityFor(args.request, args.context, args.locale);
  const page = await loadFlowPage(args, frontend, settingsRoute);
  if (page instanceof Response) return page;
  const flow = SettingsFlowFromJSON(withRecoveryMinutes(page.flow, new Date()));
  const sessions = await loadSessions(frontend);
  return data(
    {
      flow,
      notice: page.notice,
      sessions,
      fingerprint: sessionEntropy(args.request),
      /** What the cards say of each device they list (the parser stays on the server). */
      devices: describeListedDevices(sessions, flow.ui.nodes),
    },
    { headers: setCookieHeaders(page.setCookies) },
  );
}

export async function submitSettings(args: FlowArgs) {
  await settingsCardsReady;
  const flowId = args.url.searchParams.get("flow");
  if (!flowId) return redirect(`/${args.locale}/settings`);
  const form = await args.request.formData();
  // Two actions in one post: the confirmation and the handler could read different ones.
  if (isAmbiguousSettingsPost(form)) {
    return data({ notice: "notice.somethingWentWrong" as const }, { status: 400 });
  }
  const client = identityFor(args.request, args.context, args.locale);
  const ask = await askFirst({ ...args, form, flowId, frontend: client.frontend });
  if (ask) return ask;
  if (form.has(intentField)) {
    return submitSessionIntent(client, form, flowId, flowRoute(args, settingsRoute, "submit"));
  }
  // The identity service decides by the clicked button what the post is for, as with Kratos' UIs.
  let body = forwardedForm(form, settingsPortalFields);
  // The card whose form this was: its own validation answers and messages go back to it.
  const group = settingsGroup(body);
  const { frontend, selfService } = client;

  if (group === "password") {
    const password = stringField(body, passwordFields.password) ?? "";
    const fieldErrors = checkPasswordChange(password, confirmOf(form));
    if (Object.keys(fieldErrors).length > 0) {
      return data({ group, fieldErrors, values: {} }, { status: 400 });
    }
  } else if (group === "profile") {
    const posted = isRecord(body.traits) ? { ...body.traits } : {};
    if (typeof posted.phone === "string") {
      const typed = posted.phone.trim();
      const number = typed === "" ? "" : toE164(typed);
      if (number === undefined) {
        const fieldErrors: FieldErrors = { "traits.phone": [phoneMessages.invalid] };
        return data({ group, fieldErrors, values: { "traits.phone": typed } }, { status: 400 });
      }
      posted.phone = number;
    }
    // The e-mail is shown but not editable here: the identity's own traits are sent, with the
    // posted ones laid over them (an emptied phone number is removed, not sent empty).
    const current = await readIdentityAnswer(() => frontend.getSettingsFlowRaw({ id: flowId }));
    const outcome = classifyIdentityAnswer(current, { fetched: true });
    if (outcome.kind !== "flow") {
      const result = await followOutcome(
        outcome,
        flowRoute(args, settingsRoute, "submit"),
        current.setCookies,
      );
      if (result.type === "redirect") return result.response;
      return data({ notice: "notice.somethingWentWrong" as const }, { status: 502 });
    }
    body = { ...body, traits: profileTraits(outcome.flow, posted) };
  }

  return submitFlow({
    args,
    route: settingsRoute,
    send: () => selfService.updateSettingsFlowRaw({ flow: flowId, body }),
    render: (flow) => ({
      group,
      flow: SettingsFlowFromJSON(withRecoveryMinutes(flow, new Date())),
    }),
    success: (setCookies) => {
      const here = flowPageUrl(flowRoute(args, settingsRoute, "submit"), { flow: flowId });
      return redirectWithCookies(here, setCookies);
    },
  });
}

function confirmOf(form: FormData): string {
  const value = form.get(passwordFields.confirm);
  return typeof value === "string" ? value : "";
}

/**
 * The identity's traits with the posted ones laid over them: never a different e-mail, and an
 * emptied field removes its trait (the schema refuses empty strings).
 */
function profileTraits(flow: FlowShape, posted: Record<string, unknown>): Record<string, unknown> {
  const identity = isRecord(flow.identity) ? flow.identity : {};
  const current = isRecord(identity.traits) ? identity.traits : {};
  const traits: Record<string, unknown> = { ...current };
  for (const [name, value] of Object.entries(posted)) {
    if (name === "email") continue;
    if (value === "") delete traits[name];
    else traits[name] = value;
  }
  return traits;
}

/**
 * Kratos words 1060001 with the minutes left to change credentials, which its context only
 * gives as a time; the minutes are worked out here, once, so server and browser agree.
 */
export function withRecoveryMinutes(flow: FlowShape, now: Date): FlowShape {
  const messages = flow.ui.messages;
  if (!Array.isArray(messages)) return flow;
  return {
    ...flow,
    ui: {
      ...flow.ui,
      messages: messages.map((message: unknown) => {
        if (!isRecord(message) || message.id !== 1060001 || !isRecord(message.context)) {
          return message;
        }
        const until = Date.parse(String(message.context.privileged_session_expires_at));
        if (Number.isNaN(until)) return message;
        const minutes = Math.max(0, Math.round((until - now.getTime()) / 60_000));
        return {
          ...message,
          context: { ...message.context, minutes_until_privileged_session_expires_at: minutes },
        };
      }),
    },
  };
}
