import { Suspense, lazy, startTransition, useEffect, useRef, useState } from "react";
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
  /** What was typed into the plain input before the picker arrived (set by PhoneField). */
  typed?: string;
  /** The plain input had focus when the picker replaced it: the picker's input takes it over. */
  takeFocus?: boolean;
}

const PhoneWidget = lazy(() => import("./phone-widget.tsx"));

/**
 * A phone number input. The server and browsers without JavaScript get a plain
 * <input type="tel"> (the action turns what was typed into E.164); once scripts run, the
 * country picker replaces it, loaded only by the pages that show a phone field. The swap is a
 * transition, so the plain input stays in place until the picker's chunk has arrived. What is
 * typed into it is kept as state (not read from the page when the picker renders): typing that
 * lands between the picker's render and its commit then re-renders the picker with the number
 * instead of being lost in the swap. Focus moves over too, so a person typing goes on typing.
 */
export function PhoneField(props: PhoneWidgetProps) {
  const [pickerWanted, setPickerWanted] = useState(false);
  const [typed, setTyped] = useState<string>();
  const [focused, setFocused] = useState(false);
  const plainRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    // Typing before hydration changed the page but fired no change event.
    const before = plainRef.current?.value ?? "";
    if (before !== "") setTyped(before);
    if (plainRef.current !== null && document.activeElement === plainRef.current) setFocused(true);
    startTransition(() => setPickerWanted(true));
  }, []);
  const plain = (
    <input
      ref={plainRef}
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
      onChange={(event) => setTyped(event.target.value)}
      onFocus={() => setFocused(true)}
      onBlur={() => setFocused(false)}
    />
  );
  return (
    <Suspense fallback={plain}>
      {pickerWanted ? <PhoneWidget {...props} typed={typed} takeFocus={focused} /> : plain}
    </Suspense>
  );
}
