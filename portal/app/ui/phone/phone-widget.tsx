import { useEffect, useState } from "react";
import type { ChangeEvent } from "react";
import PhoneInput, {
  getCountryCallingCode,
  isValidPhoneNumber,
  parsePhoneNumber,
} from "react-phone-number-input";
import type { Country } from "react-phone-number-input";
import englishNames from "react-phone-number-input/locale/en";
import spanishNames from "react-phone-number-input/locale/es";
import type { Locale } from "../../i18n/locales.ts";
import type { PhoneWidgetProps } from "./phone-field.tsx";

const countryNames = { en: englishNames, es: spanishNames } satisfies Record<Locale, object>;

/**
 * The phone number picker (react-phone-number-input, loaded on demand). It posts the number as
 * E.164 in a hidden input under the field's name; the visible input shows it formatted. The
 * country is a plain, labelled <select> (no flag images: the CSP allows none from elsewhere).
 */
export default function PhoneWidget(props: PhoneWidgetProps) {
  const [value, setValue] = useState<string | undefined>(
    () => asNumber(props.typed) ?? (props.defaultValue || undefined),
  );
  useEffect(() => {
    if (!props.takeFocus) return;
    const input = document.getElementById(props.id);
    if (!(input instanceof HTMLInputElement)) return;
    input.focus();
    // A programmatic focus puts the caret at the start; the person was typing at the end.
    input.setSelectionRange(input.value.length, input.value.length);
    // Only when the picker first replaces the plain input.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const change = (next: string | undefined) => {
    setValue(next);
    props.onValueChange?.(next, next !== undefined && isValidPhoneNumber(next));
  };
  return (
    <div>
      <PhoneInput
        id={props.id}
        value={value}
        onChange={change}
        defaultCountry="US"
        labels={{ ...countryNames[props.locale], country: props.countryLabel }}
        countrySelectComponent={CountrySelect}
        addInternationalOption={false}
        autoComplete="tel"
        required={props.required}
        disabled={props.disabled}
        aria-invalid={props.invalid || undefined}
        aria-describedby={props.describedBy}
        className="flex flex-wrap gap-2"
        numberInputProps={{ className: props.inputClassName }}
      />
      <input type="hidden" name={props.name} value={value ?? ""} />
      {props.clearLabel !== undefined && (
        <button
          type="button"
          onClick={() => {
            change(undefined);
            // The user goes on where the number was, e.g. to type another one.
            document.getElementById(props.id)?.focus();
          }}
          disabled={props.disabled}
          className="mt-1 min-h-6 text-sm font-medium text-blue-700 underline underline-offset-4 dark:text-blue-300"
        >
          {props.clearLabel}
        </button>
      )}
    </div>
  );
}

/** A number typed into the plain input, as E.164 where it parses (US numbers need no +1). */
function asNumber(typed: string | undefined): string | undefined {
  const trimmed = typed?.trim() ?? "";
  if (trimmed === "") return undefined;
  return parsePhoneNumber(trimmed, "US")?.number ?? trimmed;
}

interface CountryOption {
  value?: Country;
  label: string;
  divider?: boolean;
}

/** A visible native select of countries with their calling codes. */
function CountrySelect(props: {
  value?: Country;
  onChange: (country?: Country) => void;
  options: CountryOption[];
  disabled?: boolean;
  "aria-label"?: string;
  onFocus?: () => void;
  onBlur?: () => void;
}) {
  const onChange = (event: ChangeEvent<HTMLSelectElement>) => {
    const chosen = props.options.find((option) => option.value === event.target.value);
    props.onChange(chosen?.value);
  };
  return (
    <select
      value={props.value ?? ""}
      onChange={onChange}
      onFocus={props.onFocus}
      onBlur={props.onBlur}
      disabled={props.disabled}
      aria-label={props["aria-label"]}
      className="w-full rounded-md sm:w-40 sm:shrink-0 border border-slate-500 bg-white px-2 py-2 text-base text-slate-900 dark:border-slate-400 dark:bg-slate-950 dark:text-slate-100"
    >
      {props.options
        .filter((option) => !option.divider && option.value !== undefined)
        .map((option) => (
          <option key={option.value} value={option.value}>
            {`${option.label} (+${option.value ? getCountryCallingCode(option.value) : ""})`}
          </option>
        ))}
    </select>
  );
}
