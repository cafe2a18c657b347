import { useTranslator } from "../i18n/translator-context.tsx";
import { fromUiText, nodeLabel, translateMessage } from "./messages.ts";
import type { AnchorAttributes, ImageAttributes, NodeWith, TextAttributes } from "./node-guards.ts";

export function NodeImage(props: { node: NodeWith<ImageAttributes> }) {
  const translator = useTranslator();
  const { attributes } = props.node;
  const label = nodeLabel(props.node);
  return (
    <img
      id={attributes.id || undefined}
      src={attributes.src}
      width={attributes.width || undefined}
      height={attributes.height || undefined}
      alt={label ? translateMessage(translator, label) : ""}
      className="mx-auto mb-4"
    />
  );
}

export function NodeAnchor(props: { node: NodeWith<AnchorAttributes> }) {
  const translator = useTranslator();
  const { attributes } = props.node;
  return (
    <p className="mb-4">
      <a
        id={attributes.id || undefined}
        href={attributes.href}
        className="text-blue-700 underline underline-offset-4 dark:text-blue-300"
      >
        {translateMessage(translator, fromUiText(attributes.title))}
      </a>
    </p>
  );
}

/** A text node: its text is a message (Kratos sends `null` for empty ones). */
export function NodeText(props: { node: NodeWith<TextAttributes> }) {
  const translator = useTranslator();
  const { attributes } = props.node;
  const text: TextAttributes["text"] | null = attributes.text;
  if (!text) return null;
  return (
    <p id={attributes.id || undefined} data-message-id={text.id} className="mb-4">
      {translateMessage(translator, fromUiText(text))}
    </p>
  );
}
