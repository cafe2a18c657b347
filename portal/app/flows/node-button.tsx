import { useTranslator } from "../i18n/translator-context.tsx";
import { destructiveButton, primaryButton, secondaryButton } from "../ui/buttons.ts";
import { Spinner } from "../ui/spinner.tsx";
import { labelText, valueAsString } from "./node-field.tsx";
import type { InputAttributes, NodeWith } from "./node-guards.ts";
import type { NodeRenderOptions } from "./node-render-options.ts";
import { TriggerButton } from "./webauthn/trigger-button.tsx";
import { triggerOf } from "./webauthn/triggers.ts";

/**
 * Submit nodes become real submit buttons: the browser (or React Router's <Form>) sends the
 * clicked one's name=value, which is how the identity service learns the chosen method.
 * Buttons with a WebAuthn trigger run the portal's own function for it (webauthn/).
 */
export function NodeButton(props: { node: NodeWith<InputAttributes>; options: NodeRenderOptions }) {
  const translator = useTranslator();
  const { attributes } = props.node;
  const submit = attributes.type === "submit";
  const busy = submit && props.options.submitting === true;
  const secondary = props.options.secondaryButtons?.includes(attributes.name) === true;
  const destructive = props.options.destructiveButtons?.includes(attributes.name) === true;
  const look = destructive ? destructiveButton : secondary ? secondaryButton : primaryButton;
  const trigger = triggerOf(props.node, "click");
  if (trigger) {
    const run = props.options.runTrigger;
    return (
      <TriggerButton node={props.node} trigger={trigger} run={run} className={`mt-2 ${look}`} />
    );
  }
  return (
    <button
      type={submit ? "submit" : "button"}
      name={attributes.name}
      value={valueAsString(attributes.value)}
      disabled={attributes.disabled || busy}
      aria-busy={busy || undefined}
      className={`mt-2 ${look}`}
    >
      {busy && <Spinner className="size-4" />}
      {labelText(translator, props.node)}
    </button>
  );
}
