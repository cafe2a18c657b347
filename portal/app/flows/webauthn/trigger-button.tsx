import { useTranslator } from "../../i18n/translator-context.tsx";
import { labelText, valueAsString } from "../node-field.tsx";
import type { InputAttributes, NodeWith } from "../node-guards.ts";
import { useHydrated } from "../use-hydrated.ts";

/**
 * A passkey or security-key button. It runs the portal's own function for the node's trigger
 * (never the node's `onclick` string). Until the page is hydrated and the ceremony code is
 * there it is disabled. Why, it says only where scripting is off (CSS `@media (scripting: none)`,
 * Tailwind's `noscript:`; not <noscript>, whose content Playwright's queries skip): a note that
 * disappeared on hydration moved everything below it, and a click aimed at "Create account"
 * while the page hydrated landed on empty space (lost clicks seen in CI runs 25 and earlier).
 */
export function TriggerButton(props: {
  node: NodeWith<InputAttributes>;
  trigger: string;
  className: string;
  run: ((trigger: string) => void) | undefined;
}) {
  const translator = useTranslator();
  const hydrated = useHydrated();
  const ready = hydrated && props.run !== undefined;
  const { name } = props.node.attributes;
  const hintId = `${name}-needs-javascript`;
  return (
    <>
      <button
        type="button"
        name={name}
        // Kratos' security-key buttons carry their options here (never posted: type=button).
        value={valueAsString(props.node.attributes.value)}
        disabled={!ready || props.node.attributes.disabled}
        aria-describedby={hydrated ? undefined : hintId}
        onClick={() => props.run?.(props.trigger)}
        className={props.className}
      >
        {labelText(translator, props.node)}
      </button>
      <p
        id={hintId}
        className="mt-1 hidden text-sm text-slate-700 noscript:block dark:text-slate-300"
      >
        {translator.t("webauthn.needsJavaScript")}
      </p>
    </>
  );
}
