import type { UiNode } from "@portal/client";
import { useEffect, useRef } from "react";
import type { FormEvent, ReactNode, Ref } from "react";
import { Form, useActionData, useNavigation } from "react-router";
import { ErrorSummary } from "./error-summary.tsx";
import { focusAfterAnswer } from "./focus-after-answer.ts";
import { FlowNode, nodeKey } from "./flow-node.tsx";
import { isSubmitNode } from "./node-guards.ts";
import { withTypedValues } from "./typed-values.ts";
import { rateLimitedValues } from "./rate-limit-answer.ts";
import type { NodeRenderOptions } from "./node-render-options.ts";
import { useBusyForm } from "./use-busy-form.ts";
import { useOwnAnswer } from "./use-own-answer.ts";
import { useWebAuthn } from "./webauthn/use-webauthn.ts";
import { Alert } from "../ui/alert.tsx";
import { useTranslator } from "../i18n/translator-context.tsx";

/**
 * A flow's nodes as a real form that posts to the route's own action (the URL keeps ?flow=).
 * It works without JavaScript; with it, React Router submits the same fields plus the clicked
 * button by fetch. Browser validation is off so users see the portal's own messages.
 */
export function FlowForm({
  flowId,
  nodes,
  options,
  beforeSubmit,
  formRef,
  onSubmit,
  showErrorSummary = false,
}: {
  flowId: string;
  nodes: readonly UiNode[];
  options?: NodeRenderOptions;
  /** Rendered just before the first submit button (e.g. "remember me"). */
  beforeSubmit?: ReactNode;
  formRef?: Ref<HTMLFormElement>;
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  /** Once the user has submitted, list the field errors in one announced summary. */
  showErrorSummary?: boolean;
}) {
  const navigation = useNavigation();
  // Changes when the answer to this form's own submission arrives: not on other location
  // changes, nor when another form of the page (another settings card) is answered.
  const answer = useOwnAnswer();
  const renderKey = String(answer.key);
  const submitting = navigation.state === "submitting";
  const ownRef = useRef<HTMLFormElement | null>(null);
  const summaryRef = useRef<HTMLDivElement | null>(null);
  const busyHandlers = useBusyForm(ownRef, submitting);
  useEffect(() => {
    // The answer to this form's submission arrived and the page stayed: show what went wrong.
    if (answer.key === 0 || !ownRef.current) return;
    focusAfterAnswer(ownRef.current, summaryRef.current);
  }, [answer.key]);
  const webauthn = useWebAuthn(ownRef, nodes);
  const { t } = useTranslator();
  const runTrigger = (trigger: string) => {
    // A credential made for a form the portal then refuses would be left on the authenticator.
    if (options?.beforeTrigger?.(trigger) !== false) webauthn.run(trigger);
  };
  const nodeOptions = { ...options, submitting, renderKey, runTrigger };
  // A rate-limited submission left the flow as it was: without JavaScript the page comes back
  // from the server, so what was typed is put back into the fields (never passwords).
  const typed = rateLimitedValues(useActionData());
  const shown = typed ? withTypedValues(nodes, typed) : nodes;
  const firstSubmit = shown.findIndex(isSubmitNode);
  return (
    <>
      {showErrorSummary && <ErrorSummary nodes={shown} options={options} ref={summaryRef} />}
      {webauthn.failure && (
        <Alert status="error">
          <p>{t(webauthn.failure)}</p>
        </Alert>
      )}
      <Form
        // A new flow (new CSRF token, new fields) must not inherit the old one's DOM state.
        key={flowId}
        method="post"
        noValidate
        ref={(element) => {
          ownRef.current = element;
          setRef(formRef, element);
        }}
        onSubmit={(event) => {
          onSubmit?.(event);
          if (!event.defaultPrevented) answer.sent();
        }}
        aria-busy={submitting || undefined}
        {...busyHandlers}
      >
        {shown.map((node, index) => (
          <FlowSlot key={nodeKey(node, index)} before={index === firstSubmit ? beforeSubmit : null}>
            <FlowNode node={node} options={nodeOptions} />
          </FlowSlot>
        ))}
        {firstSubmit < 0 && beforeSubmit}
      </Form>
    </>
  );
}

function FlowSlot(props: { before: ReactNode; children: ReactNode }) {
  return (
    <>
      {props.before}
      {props.children}
    </>
  );
}

function setRef<T>(ref: Ref<T> | undefined, value: T | null): void {
  if (typeof ref === "function") ref(value);
  else if (ref) ref.current = value;
}
