import type { UiNode } from "@portal/client";
import { useRef } from "react";
import type { FormEvent } from "react";
import { FlowForm } from "../../flows/flow-form.tsx";
import { lowercaseInPlace } from "../../flows/lowercase-input.ts";
import type { FieldState, NodeRenderOptions } from "../../flows/node-render-options.ts";
import {
  checkWhen,
  focusFirstInvalid,
  messagesFor,
  showsError,
  useLiveErrors,
} from "../../flows/use-live-errors.ts";
import type { FieldErrors } from "../../flows/use-live-errors.ts";
import { PhoneNodeField } from "../../ui/phone/phone-node-field.tsx";
import { isValidEmail } from "../../validation/email.ts";
import { messages } from "../../validation/messages.ts";
import { addressField, checkVerification, verificationMessages } from "./verification-rules.ts";
import type { Channel } from "./verification-rules.ts";

const fieldOrder = ["code", addressField];

/**
 * The form that submits a code or asks for one: spec §5's rules live and on submit, the e-mail
 * lowercased as typed, and in phone mode the phone picker in place of the address field.
 */
export function CodeForm(props: {
  flowId: string;
  nodes: readonly UiNode[];
  channel: Channel;
  /** The action's answer: a new answer starts the live messages over. */
  actionData: unknown;
  serverErrors: FieldErrors;
  values: Partial<Record<string, string>>;
}) {
  const { channel, serverErrors } = props;
  const live = useLiveErrors(props.actionData);
  /** Whether the phone picker holds a valid number; undefined until it has reported. */
  const phoneValid = useRef<boolean | undefined>(undefined);
  const withAddress = props.nodes.some(
    (node) => node.attributes.node_type === "input" && node.attributes.name === addressField,
  );

  const fields: Record<string, FieldState> = {};
  for (const name of fieldOrder) {
    const state: FieldState = { value: name === addressField ? props.values[name] : undefined };
    const fieldMessages = messagesFor(name, live.errors, serverErrors);
    if (fieldMessages) state.messages = fieldMessages;
    fields[name] = state;
  }

  const checkAddress = (input: HTMLInputElement) => {
    const email = input.value.trim();
    live.set({
      [addressField]: email === "" || isValidEmail(email) ? [] : [messages.invalidEmail],
    });
  };
  const onFieldBlur = (name: string, input: HTMLInputElement) => {
    if (name !== addressField || channel !== "email") return;
    const shown = showsError(messagesFor(name, live.errors, serverErrors));
    if (checkWhen("blur", { changed: live.changed(name), showsError: shown })) checkAddress(input);
  };

  const onFieldInput = (name: string, input: HTMLInputElement) => {
    if (name === addressField && channel === "email") {
      lowercaseInPlace(input);
      live.markChanged(name);
      // While typing, only an error already shown is checked again (see checkWhen).
      if (showsError(messagesFor(name, live.errors, serverErrors))) checkAddress(input);
    } else if (name === "code" && input.value.trim() !== "") {
      // Either field will do, so a code also settles the address field's complaint.
      live.set({ code: [], ...(withAddress ? { [addressField]: [] } : {}) });
    }
  };

  const options: NodeRenderOptions = {
    fields,
    onFieldInput,
    onFieldBlur,
    renderInput:
      channel === "sms"
        ? {
            [addressField]: (node, state) => (
              <PhoneNodeField
                node={node}
                state={state}
                onValueChange={(value, valid) => {
                  phoneValid.current = valid;
                  const invalid = value !== undefined && !valid;
                  live.set({ [addressField]: invalid ? [verificationMessages.invalidPhone] : [] });
                }}
              />
            ),
          }
        : undefined,
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const form = event.currentTarget;
    const code = form.elements.namedItem("code");
    const address = form.elements.namedItem(addressField);
    const checked = checkVerification(
      {
        channel,
        code: code instanceof HTMLInputElement ? code.value : undefined,
        address: address instanceof HTMLInputElement ? address.value : undefined,
      },
      // The picker posts E.164 and knows its validity; a plain field is left to the server.
      (raw) => (phoneValid.current === false ? undefined : raw),
    );
    if (checked.kind !== "invalid") return;
    event.preventDefault();
    live.set(checked.errors, { submit: true });
    focusFirstInvalid(form, fieldOrder, checked.errors);
  };

  return (
    <FlowForm
      flowId={`${props.flowId}:${channel}`}
      nodes={props.nodes}
      onSubmit={onSubmit}
      options={options}
      showErrorSummary={props.actionData !== undefined || live.submitted}
    />
  );
}
