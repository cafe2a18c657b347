import type { ReactNode } from "react";
import { Card } from "../../../ui/card.tsx";

/** A settings card: a titled section, so the page's headings outline its cards. */
export function CardSection(props: {
  id: string;
  title: string;
  description?: string;
  children: ReactNode;
}) {
  const titleId = `${props.id}-title`;
  return (
    <Card fill>
      {/* The id is the section navigation's anchor (and where a confirmation step lands). */}
      <section id={props.id} aria-labelledby={titleId} className="scroll-mt-4">
        <h2 id={titleId} className="text-xl font-semibold">
          {props.title}
        </h2>
        {props.description && (
          <p className="mt-1 text-slate-700 dark:text-slate-300">{props.description}</p>
        )}
        <div className="mt-4">{props.children}</div>
      </section>
    </Card>
  );
}
