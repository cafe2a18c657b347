import { Link } from "react-router";
import type { LinkProps } from "react-router";

/** The look of a link in the portal's text: blue, underlined. */
export const linkStyle = "text-blue-700 underline underline-offset-4 dark:text-blue-300";

/** The look of a link that stands on its own line ("Go back", "Create account"). */
export const strongLinkStyle = `font-medium ${linkStyle}`;

/** A link to a portal page in the text's look; `strong` for one on its own line. */
export function TextLink(props: Omit<LinkProps, "className"> & { strong?: boolean }) {
  const { strong, ...link } = props;
  return <Link {...link} className={strong ? strongLinkStyle : linkStyle} />;
}
