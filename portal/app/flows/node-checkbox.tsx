import { useTranslator } from "../i18n/translator-context.tsx";
import { Checkbox } from "../ui/checkbox.tsx";
import { FieldMessages } from "./field-messages.tsx";
import { hasErrors, nodeMessages } from "./messages.ts";
import { fieldId, labelText } from "./node-field.tsx";
import type { InputAttributes, NodeWith } from "./node-guards.ts";
import type { NodeRenderOptions } from "./node-render-options.ts";

export function NodeCheckbox(props: {
  node: NodeWith<InputAttributes>;
  options: NodeRenderOptions;
}) {
  const translator = useTranslator();
  const { attributes } = props.node;
  const id = fieldId(attributes.name);
  const messages = props.options.fields?.[attributes.name]?.messages ?? nodeMessages(props.node);
  return (
    <div className="mb-4">
      <Checkbox
        id={id}
        name={attributes.name}
        value="true"
        label={labelText(translator, props.node)}
        defaultChecked={attributes.value === true}
        required={attributes.required}
        disabled={attributes.disabled}
        aria-invalid={hasErrors(messages) ? true : undefined}
        aria-describedby={messages.length > 0 ? `${id}-messages` : undefined}
      />
      <FieldMessages id={`${id}-messages`} messages={messages} />
    </div>
  );
}
