import { RecoveryFlowFromJSON, readIdentityAnswer } from "@portal/client";
import type { UpdateRecoveryFlowBody } from "@portal/client";
import { data, redirect } from "react-router";
import type { RouterContextProvider } from "react-router";
import { followOutcome, noticeParam, whoamiStatus } from "../../flows/follow-outcome.server.ts";
import type { FlowRoute } from "../../flows/follow-outcome.server.ts";
import { classifyIdentityAnswer } from "../../flows/identity-outcome.ts";
import { loadFlowPage } from "../../flows/load-flow-page.server.ts";
import { formToJson, stringField } from "../../flows/submission.ts";
import { setCookieHeaders } from "../../http/cookies.server.ts";
import { identityFor } from "../../http/identity.server.ts";
import { redirectWithCookies } from "../../http/redirects.server.ts";
import type { Locale } from "../../i18n/locales.ts";
import { noticeFromQuery } from "../notice-query.ts";
import { validateRecovery } from "./recovery-validation.ts";

interface RecoveryArgs {
  request: Request;
  context: Readonly<RouterContextProvider>;
  locale: Locale;
  url: URL;
}

const inherited = ["return_to"] as const;

function recoveryRoute(args: RecoveryArgs, phase: FlowRoute["phase"]): FlowRoute {
  const { frontend } = identityFor(args.request, args.context);
  return {
    locale: args.locale,
    page: "recovery",
    url: args.url,
    keep: inherited,
    phase,
    sessionStatus: whoamiStatus(frontend),
  };
}

export async function loadRecovery(args: RecoveryArgs) {
  const { frontend } = identityFor(args.request, args.context, args.locale);
  const query = args.url.searchParams;
  const page = await loadFlowPage({
    query,
    route: (phase) => recoveryRoute(args, phase),
    // Created here with the page's locale as Accept-Language: the code e-mail uses that language.
    create: () =>
      readIdentityAnswer(() =>
        frontend.createBrowserRecoveryFlowRaw({ returnTo: query.get("return_to") ?? undefined }),
      ),
    get: (id) => readIdentityAnswer(() => frontend.getRecoveryFlowRaw({ id })),
  });
  if (page instanceof Response) return page;
  return data(
    { flow: RecoveryFlowFromJSON(page.flow), notice: noticeFromQuery(query.get(noticeParam)) },
    { headers: setCookieHeaders(page.setCookies) },
  );
}

export async function submitRecovery(args: RecoveryArgs) {
  const flowId = args.url.searchParams.get("flow");
  if (!flowId) return redirect(`/${args.locale}/recovery`);
  const form = await args.request.formData();
  const fields = formToJson(form);
  const checked = validateRecovery({
    email: stringField(fields, "email"),
    code: stringField(fields, "code"),
  });
  if (checked.kind === "invalid") {
    return data({ fieldErrors: checked.errors, values: checked.values }, { status: 400 });
  }

  const body: UpdateRecoveryFlowBody =
    checked.kind === "send"
      ? { method: "code", email: checked.email, csrf_token: stringField(fields, "csrf_token") }
      : { method: "code", code: checked.code, csrf_token: stringField(fields, "csrf_token") };
  const { frontend } = identityFor(args.request, args.context, args.locale);
  const answer = await readIdentityAnswer(() =>
    frontend.updateRecoveryFlowRaw({ flow: flowId, updateRecoveryFlowBody: body }),
  );
  // Success is 200 with continue_with show_settings_ui and the new session's cookie; a spent
  // flow is a 303 to its replacement. Both arrive here as redirects that carry every cookie.
  const result = await followOutcome(
    classifyIdentityAnswer(answer),
    recoveryRoute(args, "submit"),
    answer.setCookies,
  );
  const headers = setCookieHeaders(answer.setCookies);
  switch (result.type) {
    case "redirect":
      return result.response;
    case "render":
      return data(
        { flow: RecoveryFlowFromJSON(result.flow), values: checked.values },
        { status: result.status, headers },
      );
    case "success":
      return redirectWithCookies(`/${args.locale}`, answer.setCookies);
    case "error":
      return data(
        { notice: "notice.somethingWentWrong" as const, values: checked.values },
        { status: result.status >= 400 ? result.status : 502, headers },
      );
  }
}
