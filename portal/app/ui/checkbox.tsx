import type { InputHTMLAttributes } from "react";

/** A native checkbox: keyboard, forms and screen readers work without any script. */
export function Checkbox(
  props: { label: string; id: string } & Omit<InputHTMLAttributes<HTMLInputElement>, "type">,
) {
  const { label, id, className, ...inputProps } = props;
  return (
    <div className={`flex items-center gap-2 ${className ?? ""}`}>
      <input
        {...inputProps}
        id={id}
        type="checkbox"
        className="size-4 rounded border-slate-400 accent-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700 dark:accent-blue-300 dark:focus-visible:outline-blue-300"
      />
      <label htmlFor={id} className="text-sm">
        {label}
      </label>
    </div>
  );
}
