import { useTranslator } from "../../i18n/translator-context.tsx";
import { labelText, valueAsString } from "../node-field.tsx";
import type { InputAttributes, NodeWith } from "../node-guards.ts";
import { useHydrated } from "../use-hydrated.ts";

/**
 * A passkey or security-key button. It runs the portal's own function for the node's trigger
 * (never the node's `onclick` string). Until the page is hydrated, or with JavaScript off, it
 * cannot work: it is disabled and says so, pointing to the form's other ways in.
 */
export function TriggerButton(props: {
  node: NodeWith<InputAttributes>;
  trigger: string;
  className: string;
  run: ((trigger: string) => void) | undefined;
}) {
  const translator = useTranslator();
  const hydrated = useHydrated() && props.run !== undefined;
  const { name } = props.node.attributes;
  const hintId = `${name}-needs-javascript`;
  return (
    <>
      <button
        type="button"
        name={name}
        // Kratos' security-key buttons carry their options here (never posted: type=button).
        value={valueAsString(props.node.attributes.value)}
        disabled={!hydrated || props.node.attributes.disabled}
        aria-describedby={hydrated ? undefined : hintId}
        onClick={() => props.run?.(props.trigger)}
        className={props.className}
      >
        {labelText(translator, props.node)}
      </button>
      {!hydrated && (
        <p id={hintId} className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          {translator.t("webauthn.needsJavaScript")}
        </p>
      )}
    </>
  );
}
