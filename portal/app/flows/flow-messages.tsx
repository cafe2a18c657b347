import type { UiText } from "@portal/client";
import { useTranslator } from "../i18n/translator-context.tsx";
import { Alert } from "../ui/alert.tsx";
import { fromUiText, translateMessage } from "./messages.ts";

/** The flow's own messages (ui.messages): errors as one alert, the rest as notes. */
export function FlowMessages(props: {
  messages: readonly UiText[] | undefined;
  errorTitle?: string;
}) {
  const translator = useTranslator();
  const messages = (props.messages ?? []).map((text) => fromUiText(text));
  const errors = messages.filter((message) => message.type === "error");
  const notes = messages.filter((message) => message.type !== "error");
  return (
    <>
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
