import { useState } from "react";
import type { FormEvent, FocusEvent } from "react";
import { useTranslator } from "../i18n/translator-context.tsx";
import { FieldMessages } from "./field-messages.tsx";
import { hasErrors, nodeLabel, nodeMessages, translateMessage } from "./messages.ts";
import type { InputAttributes, NodeWith } from "./node-guards.ts";
import type { NodeRenderOptions } from "./node-render-options.ts";
import { useHydrated } from "./use-hydrated.ts";
import { LineIcon } from "../ui/line-icon.tsx";

const htmlInputTypes = new Set([
  "text",
  "password",
  "number",
  "email",
  "tel",
  "date",
  "datetime-local",
  "url",
]);

/** One-time codes (e-mail/SMS codes, authenticator codes): digits, filled from the message. */
const codeNames = new Set(["code", "totp_code"]);

/**
 * What the input element gets beyond the node: code fields a numeric keypad and one-time-code
 * autofill; e-mail fields autofill (the login identifier is the username) and type=text with an
 * e-mail keypad, because browsers refuse selection ranges on type=email, and the portal's
 * lowercasing as typed (spec §5) must put the caret back where it was.
 */
function inputTraits(attributes: InputAttributes, declaredType: string) {
  const fallback = attributes.name === "identifier" ? "username" : undefined;
  if (codeNames.has(attributes.name)) {
    return {
      type: declaredType === "number" ? "text" : declaredType,
      inputMode: "numeric" as const,
      autoComplete: "one-time-code",
      spellCheck: false,
    };
  }
  if (declaredType === "email") {
    return {
      type: "text",
      inputMode: "email" as const,
      autoComplete: attributes.autocomplete ?? "email",
      autoCapitalize: "none",
      spellCheck: false,
    };
  }
  return { type: declaredType, autoComplete: attributes.autocomplete ?? fallback };
}

export function fieldId(name: string): string {
  return `field-${name.replace(/[^\w-]/g, "-")}`;
}

export function valueAsString(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

/** A labelled text-like input (text, email, tel, password, number …) with its messages. */
export function NodeField(props: { node: NodeWith<InputAttributes>; options: NodeRenderOptions }) {
  const translator = useTranslator();
  const hydrated = useHydrated();
  const [revealed, setRevealed] = useState(false);
  const { node, options } = props;
  const { attributes } = node;
  const state = options.fields?.[attributes.name];
  const id = fieldId(attributes.name);
  const label = state?.label ?? labelText(translator, node);
  const messages = state?.messages ?? nodeMessages(node);
  const messagesId = `${id}-messages`;
  const hintId = `${id}-hint`;
  const describedBy = [
    state?.hint ? hintId : "",
    messages.length > 0 ? messagesId : "",
    state?.details?.id ?? "",
  ]
    .filter((part) => part !== "")
    .join(" ");
  const isPassword = attributes.type === "password";
  const declaredType = htmlInputTypes.has(attributes.type) ? attributes.type : "text";
  const { type, ...traits } = inputTraits(attributes, declaredType);
  const onInput = (event: FormEvent<HTMLInputElement>) =>
    options.onFieldInput?.(attributes.name, event.currentTarget);
  const onBlur = (event: FocusEvent<HTMLInputElement>) =>
    options.onFieldBlur?.(attributes.name, event.currentTarget);

  return (
    <div className="mb-4">
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {label}
      </label>
      <div className="relative">
        <input
          // A new render of the flow empties a password field (see NodeRenderOptions.renderKey).
          key={isPassword ? options.renderKey : undefined}
          id={id}
          name={attributes.name}
          type={isPassword && revealed ? "text" : type}
          {...traits}
          defaultValue={state?.value ?? (isPassword ? undefined : valueAsString(attributes.value))}
          required={attributes.required}
          disabled={state?.disabled ?? attributes.disabled}
          maxLength={attributes.maxlength}
          aria-invalid={hasErrors(messages) ? true : undefined}
          aria-describedby={describedBy || undefined}
          onInput={onInput}
          onBlur={onBlur}
          className={inputClassName(hasErrors(messages), isPassword ? "pr-12" : "")}
        />
        {isPassword && hydrated && (
          <button
            type="button"
            aria-pressed={revealed}
            aria-controls={id}
            onClick={() => setRevealed(!revealed)}
            className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-md text-slate-700 hover:text-slate-950 dark:text-slate-300 dark:hover:text-white"
          >
            <EyeIcon crossed={revealed} />
            <span className="sr-only">{translator.t("form.passwordToggle", { label })}</span>
          </button>
        )}
      </div>
      {state?.hint && (
        <p id={hintId} className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          {state.hint}
        </p>
      )}
      <FieldMessages id={messagesId} messages={messages} />
      {state?.details?.content}
    </div>
  );
}

/** The look of every text-like input, so fields the screens build themselves match. */
export function inputClassName(invalid: boolean, extra = ""): string {
  const border = invalid
    ? "border-red-700 dark:border-red-400"
    : "border-slate-500 dark:border-slate-400";
  return `block w-full rounded-md border bg-white px-3 py-2 text-base text-slate-900 disabled:bg-slate-100 disabled:text-slate-700 dark:bg-slate-950 dark:text-slate-100 dark:disabled:bg-slate-800 dark:disabled:text-slate-300 ${border} ${extra}`;
}

export function labelText(
  translator: ReturnType<typeof useTranslator>,
  node: NodeWith<InputAttributes>,
): string {
  const label = nodeLabel(node);
  return label ? translateMessage(translator, label) : node.attributes.name;
}

function EyeIcon(props: { crossed: boolean }) {
  return (
    <LineIcon>
      <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12Z" />
      <circle cx="12" cy="12" r="3" />
      {props.crossed && <path d="M3 3l18 18" />}
    </LineIcon>
  );
}
