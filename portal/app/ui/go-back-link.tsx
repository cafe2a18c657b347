import { Link, useNavigate } from "react-router";
import { strongLinkStyle } from "./text-link.tsx";

/**
 * "Go back": a step back in the browser's history with JavaScript, and a plain link to
 * `fallback` without it (or when this page was opened first).
 */
export function GoBackLink(props: { fallback: string; label: string }) {
  const navigate = useNavigate();
  return (
    <Link
      to={props.fallback}
      onClick={(event) => {
        if (window.history.length <= 1) return;
        event.preventDefault();
        void navigate(-1);
      }}
      className={strongLinkStyle}
    >
      {props.label}
    </Link>
  );
}
