import { Form, useNavigation } from "react-router";
import { secondaryButton } from "../../ui/buttons.ts";
import { addressField, channelField } from "./verification-rules.ts";
import type { Channel } from "./verification-rules.ts";

/**
 * Sends a new code to one address: csrf_token, method=code and the address, under `sms` for a
 * phone (as Kratos' resend buttons name it) or `email`. No code field, so the action sends.
 */
export function ResendForm(props: {
  csrfToken: string;
  address: string;
  channel: Channel;
  label: string;
  className?: string;
}) {
  const navigation = useNavigation();
  return (
    <Form method="post" className={props.className}>
      <input type="hidden" name="csrf_token" value={props.csrfToken} />
      <input type="hidden" name="method" value="code" />
      <input type="hidden" name={channelField} value={props.channel} />
      <input
        type="hidden"
        name={props.channel === "sms" ? "sms" : addressField}
        value={props.address}
      />
      <button
        type="submit"
        disabled={navigation.state === "submitting"}
        className={secondaryButton}
      >
        {props.label}
      </button>
    </Form>
  );
}
