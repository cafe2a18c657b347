import { Suspense, lazy, startTransition, useEffect, useState } from "react";
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
 * country picker replaces it, loaded only by the pages that show a phone field. The swap is a
 * transition, so the plain input (and whatever was typed into it) stays in place until the
 * picker's chunk has arrived, and the picker takes that number over.
 */
export function PhoneField(props: PhoneWidgetProps) {
  const [pickerWanted, setPickerWanted] = useState(false);
  useEffect(() => {
    startTransition(() => setPickerWanted(true));
  }, []);
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
  return <Suspense fallback={plain}>{pickerWanted ? <PhoneWidget {...props} /> : plain}</Suspense>;
}
