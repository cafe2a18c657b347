import { Suspense, lazy } from "react";
import { useHydrated } from "../../flows/use-hydrated.ts";
import type { Locale } from "../../i18n/locales.ts";

/** What the picker needs; it lives in its own chunk (react-phone-number-input is heavy). */
export interface PhoneWidgetProps {
  id: string;
  name: string;
  locale: Locale;
  defaultValue?: string;
  required?: boolean;
  disabled?: boolean;
  invalid?: boolean;
  describedBy?: string;
  countryLabel: string;
  /** Offer a button that empties the field (the settings phone number). */
  clearLabel?: string;
  inputClassName: string;
  /** The number as E.164 (or undefined when empty) and whether it is a valid number. */
  onValueChange?: (value: string | undefined, valid: boolean) => void;
}

const PhoneWidget = lazy(() => import("./phone-widget.tsx"));

/**
 * A phone number input. The server and browsers without JavaScript get a plain
 * <input type="tel"> (the action turns what was typed into E.164); once scripts run, the
 * country picker replaces it, loaded only by the pages that show a phone field.
 */
export function PhoneField(props: PhoneWidgetProps) {
  const hydrated = useHydrated();
  const plain = (
    <input
      id={props.id}
      name={props.name}
      type="tel"
      autoComplete="tel"
      defaultValue={props.defaultValue}
      required={props.required}
      disabled={props.disabled}
      aria-invalid={props.invalid || undefined}
      aria-describedby={props.describedBy}
      className={props.inputClassName}
    />
  );
  if (!hydrated) return plain;
  return (
    <Suspense fallback={plain}>
      <PhoneWidget {...props} />
    </Suspense>
  );
}
