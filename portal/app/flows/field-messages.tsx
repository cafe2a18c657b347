import { useTranslator } from "../i18n/translator-context.tsx";
import type { FieldMessage } from "./messages.ts";
import { translateMessage } from "./messages.ts";

const tone = {
  error: "text-red-700 dark:text-red-300",
  info: "text-slate-700 dark:text-slate-300",
  success: "text-green-800 dark:text-green-300",
};

/**
 * The container is always present and polite-live, so messages that appear while the user
 * types are announced; the input points at it with aria-describedby once it has content.
 */
export function FieldMessages(props: { id: string; messages: readonly FieldMessage[] }) {
  const translator = useTranslator();
  return (
    <div id={props.id} aria-live="polite" className="mt-1 text-sm">
      {props.messages.map((message) => (
        <p
          key={`${message.key}-${translateMessage(translator, message)}`}
          data-message-id={message.id}
          className={tone[message.type]}
        >
          {translateMessage(translator, message)}
        </p>
      ))}
    </div>
  );
}
