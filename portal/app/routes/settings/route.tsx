import type { UiNode } from "@portal/client";
import type { Route } from "./+types/route";
import { answerOr } from "../../flows/action-answer.ts";
import { flowAction, flowLoader } from "../../flows/flow-route-module.server.ts";
import { FlowMessages } from "../../flows/flow-messages.tsx";
import { inputValue } from "../../flows/node-filters.ts";
import { useTranslator } from "../../i18n/translator-context.tsx";
import { FlowNotice } from "../flow-notice.tsx";
import { SessionsCard, settingsCards } from "./cards/index.ts";
import type { CardResult } from "./cards/settings-card.ts";
import { loadSettings, submitSettings } from "./settings.server.ts";
import { PageTitle } from "../../ui/page-title.tsx";
import { SignOutForm } from "../../ui/sign-out-form.tsx";

export const loader = flowLoader(loadSettings);

export const action = flowAction(submitSettings);

/** A card's form posts its own group's nodes and the flow's shared ones (the CSRF token). */
function cardNodes(nodes: readonly UiNode[], group: string): UiNode[] {
  return nodes.filter((node) => node.group === group || node.group === "default");
}

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslator();
  const flow = answerOr(actionData, "flow", loaderData.flow);
  const notice = answerOr(actionData, "notice", loaderData.notice);
  const answered =
    actionData && "fieldErrors" in actionData
      ? { group: actionData.group, result: actionData satisfies CardResult }
      : undefined;
  const cards = settingsCards.filter((card) => {
    const groupNodes = flow.ui.nodes.filter((node) => node.group === card.group);
    return card.shows ? card.shows(groupNodes) : groupNodes.length > 0;
  });
  const sessionsResult = answerOr(actionData, "sessions", undefined);

  return (
    <div className="w-full max-w-xl">
      <PageTitle title={t("settings.title")} />
      <p className="mt-1 mb-6 text-slate-700 dark:text-slate-300">{t("settings.description")}</p>
      <FlowNotice flowId={flow.id} notice={notice} />
      <FlowMessages messages={flow.ui.messages} />
      <nav aria-label={t("settings.nav")} className="mb-6">
        <ul className="flex flex-wrap gap-x-2 gap-y-1 text-sm">
          {[
            ...cards.map(({ anchor, title }) => ({ anchor, title })),
            ...(loaderData.sessions
              ? [{ anchor: "settings-sessions", title: "settings.sessions.title" as const }]
              : []),
          ].map(({ anchor, title }) => (
            <li key={anchor}>
              <a
                href={`#${anchor}`}
                className="inline-flex min-h-6 items-center rounded-full border border-slate-300 px-3 py-1 font-medium text-blue-800 underline-offset-4 hover:underline dark:border-slate-600 dark:text-blue-200"
              >
                {t(title)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div className="flex flex-col gap-6">
        {cards.map(({ id, group, Component }) => (
          <Component
            key={id}
            flow={flow}
            nodes={cardNodes(flow.ui.nodes, group)}
            result={answered?.group === id ? answered.result : undefined}
            resultKey={actionData}
            fingerprint={loaderData.fingerprint}
          />
        ))}
        {loaderData.sessions && (
          <SessionsCard
            sessions={loaderData.sessions}
            csrfToken={inputValue(flow.ui.nodes, "csrf_token") ?? ""}
            result={sessionsResult}
          />
        )}
      </div>
      {/* The same sign-out form as the header's, for people who look for it here. */}
      <SignOutForm
        className="mt-6 text-sm"
        buttonClassName="cursor-pointer font-medium text-blue-700 underline underline-offset-4 dark:text-blue-300"
      />
    </div>
  );
}
