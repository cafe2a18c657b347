import type { UiNode } from "@portal/client";
import type { Ref } from "react";
import { useTranslator } from "../i18n/translator-context.tsx";
import { Alert } from "../ui/alert.tsx";
import { nodeMessages, translateMessage } from "./messages.ts";
import { fieldId, labelText } from "./node-field.tsx";
import { isInputNode } from "./node-guards.ts";
import type { NodeRenderOptions } from "./node-render-options.ts";

/**
 * After a submission, one announced list of what needs fixing, each item a link to its field.
 * (Field messages themselves are only polite, so typing does not interrupt the user.)
 */
export function ErrorSummary({
  ref,
  ...props
}: {
  nodes: readonly UiNode[];
  options?: NodeRenderOptions;
  /** Focus lands here after a failed submission (see focusAfterAnswer). */
  ref?: Ref<HTMLDivElement>;
}) {
  const translator = useTranslator();
  const items = props.nodes.flatMap((node) => {
    if (!isInputNode(node)) return [];
    const name = node.attributes.name;
    const state = props.options?.fields?.[name];
    const errors = (state?.messages ?? nodeMessages(node)).filter((m) => m.type === "error");
    const label = state?.label ?? labelText(translator, node);
    return errors.map((message) => ({
      href: `#${fieldId(name)}`,
      text: `${label}: ${translateMessage(translator, message)}`,
    }));
  });
  if (items.length === 0) return null;
  return (
    <Alert status="error" title={translator.t("form.errorSummary")} ref={ref} tabIndex={-1}>
      <ul className="mt-1 list-disc pl-5">
        {items.map((item) => (
          <li key={item.text}>
            <a href={item.href} className="underline underline-offset-2">
              {item.text}
            </a>
          </li>
        ))}
      </ul>
    </Alert>
  );
}
