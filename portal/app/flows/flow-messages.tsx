import type { UiText } from "@portal/client";
import { useActionData } from "react-router";
import { useTranslator } from "../i18n/translator-context.tsx";
import { Alert } from "../ui/alert.tsx";
import { fromUiText, translateMessage } from "./messages.ts";
import { rateLimitOf, rateLimitText } from "./rate-limit-answer.ts";

/**
 * The flow's own messages (ui.messages): errors as one alert, the rest as notes. A submission the
 * identity service refused with 429 (keep-form-when-rate-limited.server.ts) adds how long to wait.
 */
export function FlowMessages(props: {
  messages: readonly UiText[] | undefined;
  errorTitle?: string;
}) {
  const translator = useTranslator();
  const messages = (props.messages ?? []).map((text) => fromUiText(text));
  const errors = messages.filter((message) => message.type === "error");
  const notes = messages.filter((message) => message.type !== "error");
  const limited = rateLimitOf(useActionData());
  return (
    <>
      {limited && (
        <Alert status="error" title={translator.t("rateLimited.title")}>
          <p data-rate-limited>{rateLimitText(translator, limited)}</p>
        </Alert>
      )}
      {errors.length > 0 && (
        <Alert status="error" title={props.errorTitle}>
          {errors.map((message) => (
            <p key={message.key} data-message-id={message.id}>
              {translateMessage(translator, message)}
            </p>
          ))}
        </Alert>
      )}
      {notes.map((message) => (
        <Alert key={message.key} status={message.type === "success" ? "success" : "info"}>
          <p data-message-id={message.id}>{translateMessage(translator, message)}</p>
        </Alert>
      ))}
    </>
  );
}
