import { FieldMessages } from "../../flows/field-messages.tsx";
import { hasErrors, nodeMessages } from "../../flows/messages.ts";
import { fieldId, inputClassName, labelText, valueAsString } from "../../flows/node-field.tsx";
import type { InputAttributes, NodeWith } from "../../flows/node-guards.ts";
import type { FieldState } from "../../flows/node-render-options.ts";
import { useTranslator } from "../../i18n/translator-context.tsx";
import { PhoneField } from "./phone-field.tsx";

/**
 * A flow's phone input rendered with the phone picker: labelled and described like every other
 * field (NodeField), posting E.164 under the node's name.
 */
export function PhoneNodeField(props: {
  node: NodeWith<InputAttributes>;
  state: FieldState | undefined;
  clearable?: boolean;
  onValueChange?: (value: string | undefined, valid: boolean) => void;
}) {
  const translator = useTranslator();
  const { node, state } = props;
  const { attributes } = node;
  const id = fieldId(attributes.name);
  const messages = state?.messages ?? nodeMessages(node);
  const invalid = hasErrors(messages);
  const messagesId = `${id}-messages`;
  const hintId = `${id}-hint`;
  const describedBy = [state?.hint ? hintId : "", messages.length > 0 ? messagesId : ""]
    .filter((part) => part !== "")
    .join(" ");
  return (
    <div className="mb-4">
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        {state?.label ?? labelText(translator, node)}
      </label>
      <PhoneField
        id={id}
        name={attributes.name}
        locale={translator.locale}
        defaultValue={state?.value ?? valueAsString(attributes.value)}
        required={attributes.required}
        disabled={state?.disabled ?? attributes.disabled}
        invalid={invalid}
        describedBy={describedBy || undefined}
        countryLabel={translator.t("phone.country")}
        clearLabel={props.clearable ? translator.t("phone.clear") : undefined}
        inputClassName={inputClassName(invalid, "min-w-0 flex-1")}
        onValueChange={props.onValueChange}
      />
      {state?.hint && (
        <p id={hintId} className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          {state.hint}
        </p>
      )}
      <FieldMessages id={messagesId} messages={messages} />
    </div>
  );
}
