import type { ReactNode } from "react";

/** A decorative 24×24 line drawing in the text's colour (the eye of a password field, the sun). */
export function LineIcon(props: { children: ReactNode }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="size-5"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
    >
      {props.children}
    </svg>
  );
}
