import { useTranslator } from "../i18n/translator-context.tsx";

/** A page's heading, and the browser tab's title: the same words, the portal's name after them. */
export function PageTitle(props: { title: string }) {
  const { t } = useTranslator();
  return (
    <>
      <title>{`${props.title} – ${t("brand.name")}`}</title>
      <h1 className="text-2xl font-semibold">{props.title}</h1>
    </>
  );
}
