import { Form, useNavigation } from "react-router";
import { useTranslator } from "../../../i18n/translator-context.tsx";
import { Alert } from "../../../ui/alert.tsx";
import { destructiveButton, secondaryButton } from "../../../ui/buttons.ts";
import { DeviceSummary } from "../devices/device-summary.tsx";
import { useTimestampFormatter } from "../devices/format-timestamp.ts";
import type { SessionSummary, SessionsResult, SessionsView } from "../sessions.ts";
import { intentField, sessionIdField, sessionIntents } from "../sessions.ts";
import { CardSection } from "./card-section.tsx";
import { ConfirmStep, useConfirmation } from "./confirm-step.tsx";

export interface SessionsCardProps {
  sessions: SessionsView;
  csrfToken: string;
  result: SessionsResult | undefined;
}

/**
 * Where the user is signed in: this session and the others, each with its device, and the
 * ways out of them. Plain forms with a hidden intent: the settings action makes the calls.
 */
export function SessionsCard(props: SessionsCardProps) {
  const { t } = useTranslator();
  const { current, others } = props.sessions;
  const submitting = useNavigation().state === "submitting";
  const { result } = props;
  const confirmation = useConfirmation();

  return (
    <CardSection
      id="settings-sessions"
      title={t("settings.sessions.title")}
      description={t("settings.sessions.description")}
    >
      {result && (
        <Alert status={result.kind === "failed" ? "error" : "success"}>
          <p>
            {result.kind === "revoked-others"
              ? t("settings.sessions.revokedOthers", { count: result.count })
              : t(
                  result.kind === "revoked"
                    ? "settings.sessions.revoked"
                    : "settings.sessions.failed",
                )}
          </p>
        </Alert>
      )}
      <ul className="flex flex-col gap-3">
        {current && (
          <li className="rounded-md border border-slate-300 p-4 dark:border-slate-600">
            <SessionDevice session={current} marker={t("settings.sessions.current")} />
          </li>
        )}
        {others.map((session) => (
          <li
            key={session.id}
            className="rounded-md border border-slate-300 p-4 dark:border-slate-600"
          >
            <SessionDevice session={session} />
            <Form method="post" preventScrollReset className="mt-3">
              <input type="hidden" name="csrf_token" value={props.csrfToken} />
              <input type="hidden" name={intentField} value={sessionIntents.revoke} />
              <input type="hidden" name={sessionIdField} value={session.id} />
              <button
                type="submit"
                disabled={submitting}
                aria-describedby={`session-${session.id}`}
                className={`${secondaryButton} sm:w-auto`}
              >
                {t("settings.sessions.revoke")}
              </button>
            </Form>
          </li>
        ))}
      </ul>
      {others.length === 0 ? (
        <p className="mt-3 text-sm">{t("settings.sessions.none")}</p>
      ) : confirmation.asking === "revoke_others" ? (
        <div className="mt-4">
          <ConfirmStep
            action="revoke_others"
            explanation={t("settings.confirm.revokeOthers", { count: others.length })}
            confirmLabel={t("settings.sessions.revokeOthers")}
            fields={[
              ["csrf_token", props.csrfToken],
              [intentField, sessionIntents.revokeOthers],
            ]}
          />
        </div>
      ) : (
        <Form
          method="post"
          preventScrollReset
          className="mt-4"
          onSubmit={confirmation.interceptSubmit()}
        >
          <input type="hidden" name="csrf_token" value={props.csrfToken} />
          <input type="hidden" name={intentField} value={sessionIntents.revokeOthers} />
          <button type="submit" disabled={submitting} className={destructiveButton}>
            {t("settings.sessions.revokeOthers")}
          </button>
        </Form>
      )}
    </CardSection>
  );
}

function SessionDevice(props: { session: SessionSummary; marker?: string }) {
  const { t, locale } = useTranslator();
  const format = useTimestampFormatter(locale);
  const { session } = props;
  const signedIn = session.signedInAt && format(session.signedInAt);
  return (
    <DeviceSummary
      id={`session-${session.id}`}
      userAgent={session.userAgent}
      ipAddress={session.ipAddress}
      marker={props.marker}
    >
      {signedIn && (
        <p className="text-slate-700 dark:text-slate-300">
          {t("settings.sessions.signedIn", { date: signedIn })}
        </p>
      )}
    </DeviceSummary>
  );
}
