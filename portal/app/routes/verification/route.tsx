import type { Route } from "./+types/route";
import { answerOr } from "../../flows/action-answer.ts";
import { flowAction, flowLoader } from "../../flows/flow-route-module.server.ts";
import { FlowMessages } from "../../flows/flow-messages.tsx";
import { codeErrorsOnField } from "../../flows/code-errors.ts";
import { fromUiText, translateMessage } from "../../flows/messages.ts";
import { findInput, inputValue } from "../../flows/node-filters.ts";
import { isAnchorAttributes } from "../../flows/node-guards.ts";
import type { FieldErrors } from "../../flows/use-live-errors.ts";
import { useTranslator } from "../../i18n/translator-context.tsx";
import { primaryButton } from "../../ui/buttons.ts";
import { Card } from "../../ui/card.tsx";
import { GoBackLink } from "../../ui/go-back-link.tsx";
import { PageTitle } from "../../ui/page-title.tsx";
import { FlowNotice } from "../flow-notice.tsx";
import { AddressList } from "./address-list.tsx";
import { ChannelToggle } from "./channel-toggle.tsx";
import { CodeForm } from "./code-form.tsx";
import { ResendForm } from "./resend-form.tsx";
import { loadVerification, submitVerification } from "./verification.server.ts";
import { resendNode, sentChannel, verificationFormNodes } from "./verification-nodes.ts";
import { offersOtherChannel } from "./verification-rules.ts";

export const loader = flowLoader(loadVerification);

export const action = flowAction(submitVerification);

export default function Verification({ loaderData, actionData }: Route.ComponentProps) {
  const translator = useTranslator();
  const { t, locale } = translator;
  const fromAction = actionData && "flow" in actionData ? actionData : undefined;
  const flow = codeErrorsOnField(fromAction?.flow ?? loaderData.flow);
  const continueHref = fromAction ? fromAction.continueHref : loaderData.continueHref;
  const notice = answerOr(actionData, "notice", loaderData.notice);
  const serverErrors: FieldErrors = answerOr(actionData, "fieldErrors", {});
  const values: Partial<Record<string, string>> = answerOr(actionData, "values", {});

  const passed = flow.state === "passed_challenge";
  const sent = sentChannel(flow);
  // Spec §4: after an SMS the email channel is offered, and vice versa; ?channel= switches, but
  // only to a channel the page offers (the phone only to someone with a phone number).
  const switchable = offersOtherChannel({
    signedIn: loaderData.signedIn,
    addresses: loaderData.addresses,
    codeSent: sent !== undefined,
  });
  const chosen = switchable ? loaderData.channel : undefined;
  const channel = chosen ?? sent ?? "email";
  // The address field shows until a code is sent, and again when the user switches channel.
  const withAddress = flow.state === "choose_method" || (chosen !== undefined && chosen !== sent);
  const nodes = passed ? [] : verificationFormNodes(flow.ui.nodes, channel, withAddress);
  const csrfToken = inputValue(flow.ui.nodes, "csrf_token");
  const resend = resendNode(flow.ui.nodes);
  const resendAddress = typeof resend?.attributes.value === "string" ? resend.attributes.value : "";
  // The one resend button is the flow's; the address list only sends before any code went out.
  const listCsrfToken = passed || resend !== undefined ? undefined : csrfToken;

  const continueNode = flow.ui.nodes.find((node) => isAnchorAttributes(node.attributes));
  const continueLabel =
    continueNode && isAnchorAttributes(continueNode.attributes)
      ? translateMessage(translator, fromUiText(continueNode.attributes.title))
      : t("kratos.1070009");
  const description = passed
    ? undefined
    : findInput(nodes, "code")
      ? // Say where the code went: the address the person entered, as the flow sends it back.
        resendAddress !== "" && !withAddress
        ? t("verification.description.codeSentTo", { address: resendAddress })
        : t("verification.description.code")
      : t(channel === "sms" ? "verification.description.sms" : "verification.description.email");

  return (
    <Card>
      <PageTitle title={t("verification.title")} />
      {description ? (
        <p className="mt-1 mb-6 text-slate-700 dark:text-slate-300">{description}</p>
      ) : (
        <div className="mb-6" />
      )}
      <FlowNotice flowId={flow.id} notice={notice} />
      <FlowMessages messages={flow.ui.messages} />
      {passed ? (
        continueHref && (
          <a href={continueHref} className={primaryButton}>
            {continueLabel}
          </a>
        )
      ) : (
        <>
          <CodeForm
            flowId={flow.id}
            nodes={nodes}
            channel={channel}
            actionData={actionData}
            serverErrors={serverErrors}
            values={values}
          />
          {resend && csrfToken !== undefined && resendAddress !== "" && (
            <ResendForm
              csrfToken={csrfToken}
              address={resendAddress}
              channel={sent ?? "email"}
              label={translateMessage(
                translator,
                resend.meta.label
                  ? fromUiText(resend.meta.label)
                  : { key: "kratos.1070008", type: "info" },
              )}
              className="mt-3"
            />
          )}
          {switchable && <ChannelToggle current={channel} />}
        </>
      )}
      <AddressList addresses={loaderData.addresses} csrfToken={listCsrfToken} />
      <p className="mt-6 text-sm">
        <GoBackLink fallback={`/${locale}/login`} label={t("flow.goBack")} />
      </p>
    </Card>
  );
}
