import { Form, useSearchParams } from "react-router";
import { useTranslator } from "../../i18n/translator-context.tsx";
import { secondaryButton } from "../../ui/buttons.ts";
import type { Channel } from "./verification-rules.ts";

/**
 * "Use phone instead" / "Use email instead": a GET form to this page with ?channel= set, so it
 * is a real submission without JavaScript; with it, React Router re-renders in place.
 */
export function ChannelToggle(props: { current: Channel }) {
  const { t } = useTranslator();
  const [query] = useSearchParams();
  const next: Channel = props.current === "sms" ? "email" : "sms";
  const keep = ["flow", "return_to"].flatMap((name) => {
    const value = query.get(name);
    return value === null ? [] : [[name, value] as const];
  });
  return (
    <Form method="get" replace preventScrollReset className="mt-3">
      {keep.map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <input type="hidden" name="channel" value={next} />
      <button type="submit" className={secondaryButton}>
        {t(next === "sms" ? "verification.usePhone" : "verification.useEmail")}
      </button>
    </Form>
  );
}
