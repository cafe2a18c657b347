import { useTranslator } from "../i18n/translator-context.tsx";
import { fromUiText, nodeLabel, translateMessage } from "./messages.ts";
import type { AnchorAttributes, ImageAttributes, NodeWith, TextAttributes } from "./node-guards.ts";

/**
 * A URL from a node only when it cannot run script: http(s), a relative reference, or (for images
 * such as the TOTP QR code) a data:image. Browsers ignore case, leading spaces and tabs or
 * newlines inside the scheme, so the URL is parsed the way they would before its scheme is read.
 */
function safeNodeUrl(value: string | undefined, kind: "link" | "image"): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value, "http://relative.invalid/");
  } catch {
    return undefined;
  }
  if (url.protocol === "http:" || url.protocol === "https:") return value;
  if (
    kind === "image" &&
    url.protocol === "data:" &&
    /^data:image\/(png|jpeg|gif|webp);/i.test(value.trim())
  )
    return value;
  return undefined;
}

export function NodeImage(props: { node: NodeWith<ImageAttributes> }) {
  const translator = useTranslator();
  const { attributes } = props.node;
  const label = nodeLabel(props.node);
  return (
    <img
      id={attributes.id || undefined}
      src={safeNodeUrl(attributes.src, "image")}
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
        href={safeNodeUrl(attributes.href, "link")}
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
