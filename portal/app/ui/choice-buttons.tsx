import { primaryButton, secondaryButton } from "./buttons.ts";

/**
 * A question's two answers as submit buttons of one field (the OAuth2 service's consent and
 * logout questions): the clicked one posts `name=value`, the first in the primary look.
 */
export function ChoiceButtons(props: {
  name: string;
  yes: { value: string; label: string };
  no: { value: string; label: string };
}) {
  const { name, yes, no } = props;
  return (
    <>
      <button type="submit" name={name} value={yes.value} className={primaryButton}>
        {yes.label}
      </button>
      <button type="submit" name={name} value={no.value} className={secondaryButton}>
        {no.label}
      </button>
    </>
  );
}
