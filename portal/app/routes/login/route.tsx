import { lazy, useEffect, useRef, useState } from "react";
import type { ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/route";
import { answerOr } from "../../flows/action-answer.ts";
import { flowAction, flowLoader } from "../../flows/flow-route-module.server.ts";
import { FlowForm } from "../../flows/flow-form.tsx";
import { FlowMessages } from "../../flows/flow-messages.tsx";
import { codeErrorsOnField } from "../../flows/code-errors.ts";
import { passkeyLast } from "../../flows/node-filters.ts";
import { isRecord } from "../../flows/node-guards.ts";
import { useTranslator } from "../../i18n/translator-context.tsx";
import { Alert } from "../../ui/alert.tsx";
import { Card } from "../../ui/card.tsx";
import { Checkbox } from "../../ui/checkbox.tsx";
import { Divider } from "../../ui/divider.tsx";
import { PageTitle } from "../../ui/page-title.tsx";
import { TextLink } from "../../ui/text-link.tsx";
import { FlowNotice } from "../flow-notice.tsx";
import { CreateAccount } from "./create-account.tsx";
import { flowAccount } from "./flow-account.ts";
import { enhanceLogin } from "./login-enhancements.ts";
import { loadLogin, submitLogin } from "./login.server.ts";
import { fromParam, methodParam } from "./second-factor-params.ts";

/**
 * The second step (chooser and methods) is its own chunk: a plain sign-in never loads it
 * (DESIGN §6 budget). No <Suspense> around it, on purpose: the server's shell then waits for
 * it, so the HTML holds the whole form without JavaScript; the browser keeps that HTML while
 * hydration waits for the chunk, and navigations (transitions) keep the previous screen.
 */
const SecondFactor = lazy(() =>
  import("./second-factor.tsx").then((module) => ({ default: module.SecondFactor })),
);

/** "Continue as" (an OAuth2 login meeting a session) is rare too: its own chunk, as above. */
const ContinueAs = lazy(() =>
  import("./continue-as.tsx").then((module) => ({ default: module.ContinueAs })),
);

/** The refresh and second-factor pages' own links: no <Suspense> either, as above. */
const OtherAccountLinks = lazy(() =>
  import("./other-account-links.tsx").then((module) => ({ default: module.OtherAccountLinks })),
);

export const loader = flowLoader(loadLogin);

export const action = flowAction(submitLogin);

/**
 * Choosing a second-factor method only changes ?method=/?from=: the flow stays the same, so
 * the page switches without asking the identity service again.
 */
export function shouldRevalidate(args: ShouldRevalidateFunctionArgs) {
  const { currentUrl, nextUrl, formMethod, defaultShouldRevalidate } = args;
  if (formMethod !== undefined && formMethod.toUpperCase() !== "GET") {
    // A refused "Continue" (4xx: no revalidation by default) comes from a stale page: signed
    // out or in as someone else elsewhere. Read it again, as a no-JS post does: the loader then
    // offers what is left (the sign-in form, or the other account).
    const refused = isRecord(args.actionResult) && "continueAsRefusal" in args.actionResult;
    return refused || defaultShouldRevalidate;
  }
  const without = (url: URL) => {
    const query = new URLSearchParams(url.search);
    query.delete(methodParam);
    query.delete(fromParam);
    query.sort();
    return `${url.pathname}?${query.toString()}`;
  };
  return without(currentUrl) === without(nextUrl) ? false : defaultShouldRevalidate;
}

const rememberMeName = "remember_me";

/** "Sign in with passkey" is the outlined button: the page has one main action. */
const loginOptions = { secondaryButtons: ["passkey_login_trigger"] };

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { t, locale } = useTranslator();
  const formRef = useRef<HTMLFormElement>(null);
  const flow = codeErrorsOnField(answerOr(actionData, "flow", loaderData.flow));
  const notice = answerOr(actionData, "notice", loaderData.notice);
  const mode = flow.refresh ? "refresh" : flow.requested_aal === "aal2" ? "aal2" : "plain";
  const secondFactor = flow.requested_aal === "aal2";
  const title = t(
    mode === "refresh" ? "login.refreshTitle" : mode === "aal2" ? "login.aal2Title" : "login.title",
  );
  const challenge = !!flow.oauth2_login_challenge;
  const [interrupted, setInterrupted] = useState(false);
  const account = mode === "plain" ? undefined : (flowAccount(flow) ?? loaderData.account);
  const refusal = answerOr(actionData, "continueAsRefusal", undefined);
  const continueAs = actionData && "flow" in actionData ? undefined : loaderData.continueAs;

  // Remember-me and the OAuth challenge marker (spec §3, §4) run once hydrated. They are part
  // of this chunk rather than one of their own: every sign-in page needs them, and a separate
  // request costs more of DESIGN §6's budget (gzip and module overhead) than it defers. The
  // marker's own code loads only where it has work (login-enhancements.ts).
  useEffect(() => {
    enhanceLogin({
      form: mode === "plain" ? formRef.current : null,
      challenge,
      locale,
      interrupted: setInterrupted,
    });
  }, [flow.id, mode, challenge, locale]);

  if (continueAs) {
    return <ContinueAs offer={continueAs} client={loaderData.client} refusal={refusal} />;
  }

  return (
    <Card>
      <PageTitle title={title} />
      {mode === "plain" && (
        <p className="mt-1 mb-6 text-slate-700 dark:text-slate-300">
          {t(loaderData.client ? "login.oauth2Description" : "login.description", loaderData)}
        </p>
      )}
      {mode !== "plain" && (
        <p className="mt-1 mb-6 text-slate-700 dark:text-slate-300">
          {account &&
            t(mode === "refresh" ? "login.refreshAccount" : "login.signedInAs", { account })}
        </p>
      )}
      {refusal && (
        <Alert status="error" title={t("login.failedTitle")}>
          <p>{t(refusal)}</p>
        </Alert>
      )}
      <FlowNotice flowId={flow.id} notice={notice} />
      {(interrupted || (loaderData.invalid && !actionData)) && (
        <Alert status="error" title={t("login.failedTitle")}>
          <p>{t(interrupted ? "login.oauth_interrupted" : "login.invalid")}</p>
        </Alert>
      )}
      <FlowMessages messages={flow.ui.messages} errorTitle={t("login.failedTitle")} />
      {secondFactor ? (
        <SecondFactor flow={flow} showErrorSummary={actionData !== undefined} />
      ) : (
        <FlowForm
          flowId={flow.id}
          nodes={passkeyLast(flow.ui.nodes)}
          options={loginOptions}
          formRef={formRef}
          showErrorSummary={actionData !== undefined}
          beforeSubmit={
            mode === "plain" && (
              <Checkbox
                id="remember-me"
                name={rememberMeName}
                label={t("login.rememberMe")}
                className="mb-2"
              />
            )
          }
        />
      )}
      {mode === "plain" ? (
        <>
          <p className="mt-4 text-sm">
            <TextLink to={`/${locale}/recovery`}>{t("login.forgotPassword")}</TextLink>
          </p>
          <Divider />
          <CreateAccount
            openOnLoad={loaderData.confirmCreateAccount}
            query={loaderData.registration}
          />
        </>
      ) : (
        <OtherAccountLinks refresh={mode === "refresh"} returnTo={flow.return_to} />
      )}
    </Card>
  );
}
