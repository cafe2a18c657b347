import { useEffect, useRef } from "react";
import type { FormEvent } from "react";
import { Form, Link, useLocation, useNavigate, useNavigation } from "react-router";
import { useTranslator } from "../../../i18n/translator-context.tsx";
import { secondaryButton } from "../../../ui/buttons.ts";
import { confirmDestructiveButton } from "../../../ui/confirm-destructive-button.ts";
import type { UiNode } from "@portal/client";
import { valueAsString } from "../../../flows/node-field.tsx";
import { inputValue } from "../../../flows/node-filters.ts";
import { isInputNode } from "../../../flows/node-guards.ts";
import type { InputAttributes, NodeWith } from "../../../flows/node-guards.ts";
import {
  confirmCard,
  confirmField,
  confirmParam,
  confirmValueParam,
  parseConfirmAction,
  requestedAction,
  requestedValue,
  withConfirmation,
} from "../confirmations.ts";
import type { ConfirmAction } from "../confirmations.ts";

/**
 * The asking state of the settings page (`?confirm=<action>`, see confirmations.ts): which
 * action is being asked about, a way into it for a form's submit handler (with JavaScript the
 * destructive button opens it without posting), and the page's address without it.
 */
export function useConfirmation() {
  const location = useLocation();
  const navigate = useNavigate();
  const query = new URLSearchParams(location.search);
  const asking = parseConfirmAction(query.get(confirmParam));
  const askingValue = query.get(confirmValueParam) ?? undefined;
  const settled = `${location.pathname}${withConfirmation(location.search, undefined)}`;
  const ask = (action: ConfirmAction, value?: string) => {
    void navigate(
      {
        pathname: location.pathname,
        search: withConfirmation(location.search, action, value),
        hash: confirmCard[action],
      },
      { preventScrollReset: true },
    );
  };
  /** A form's onSubmit: a destructive button (one `needsAsking` accepts) asks instead of posting. */
  const interceptSubmit =
    (needsAsking: (action: ConfirmAction) => boolean = () => true) =>
    (event: FormEvent<HTMLFormElement>) => {
      const submitter = (event.nativeEvent as SubmitEvent).submitter;
      const fields: Record<string, string> = {};
      for (const [name, value] of new FormData(event.currentTarget, submitter)) {
        if (typeof value === "string") fields[name] = value;
      }
      const action = requestedAction(fields);
      if (!action || fields[confirmField] === action || !needsAsking(action)) return;
      event.preventDefault();
      ask(action, requestedValue(fields, action));
    };
  return { asking, askingValue, settled, ask, interceptSubmit };
}

/**
 * The button node being asked about (by name, and value when given) and the fields its click
 * posts: the CSRF token and its own name=value, as the card's form would have sent them.
 */
export function askedButton(
  nodes: readonly UiNode[],
  name: string,
  value?: string,
): { node: NodeWith<InputAttributes>; fields: Array<readonly [string, string]> } | undefined {
  const node = nodes.find(
    (candidate): candidate is NodeWith<InputAttributes> =>
      isInputNode(candidate) &&
      candidate.attributes.name === name &&
      (value === undefined || valueAsString(candidate.attributes.value) === value),
  );
  if (!node) return undefined;
  return {
    node,
    fields: [
      ["csrf_token", inputValue(nodes, "csrf_token") ?? ""],
      [name, valueAsString(node.attributes.value) ?? ""],
    ],
  };
}

/**
 * "Are you sure?" in the card: the explanation, a form that posts the action's own fields again
 * with the confirmation, and Cancel (a link back to the page as it was). It works the same with
 * and without JavaScript; with it, focus moves to the question when it opens.
 */
export function ConfirmStep(props: {
  action: ConfirmAction;
  explanation: string;
  confirmLabel: string;
  /** The fields the action's button posts (name, value), CSRF token included. */
  fields: ReadonlyArray<readonly [string, string]>;
}) {
  const { t } = useTranslator();
  const { settled } = useConfirmation();
  const submitting = useNavigation().state === "submitting";
  const heading = useRef<HTMLHeadingElement>(null);
  const headingId = `confirm-${props.action}-title`;
  useEffect(() => {
    heading.current?.focus();
  }, []);
  return (
    <div
      role="group"
      aria-labelledby={headingId}
      aria-describedby={`confirm-${props.action}-body`}
      className="rounded-md border border-red-300 bg-red-50 p-4 dark:border-red-800 dark:bg-red-950/40"
    >
      <h3 id={headingId} ref={heading} tabIndex={-1} className="text-lg font-semibold">
        {t("settings.confirm.title")}
      </h3>
      <p id={`confirm-${props.action}-body`} className="mt-1">
        {props.explanation}
      </p>
      {/* Posts to the page without ?confirm=, so the answer is the settled page. */}
      <Form method="post" action={settled} preventScrollReset className="mt-4">
        {props.fields.map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name={confirmField} value={props.action} />
        <div className="flex flex-col gap-3 sm:flex-row">
          <button
            type="submit"
            disabled={submitting}
            className={`${confirmDestructiveButton} sm:w-auto`}
          >
            {props.confirmLabel}
          </button>
          <Link
            to={`${settled}#${confirmCard[props.action]}`}
            preventScrollReset
            className={`${secondaryButton} sm:w-auto`}
          >
            {t("settings.confirm.cancel")}
          </Link>
        </div>
      </Form>
    </div>
  );
}
