import { createContext, useContext } from "react";
import type { ReactNode } from "react";
import type { Translator } from "./translator.ts";

const TranslatorContext = createContext<Translator | null>(null);

export function TranslatorProvider(props: { translator: Translator; children: ReactNode }) {
  return <TranslatorContext value={props.translator}>{props.children}</TranslatorContext>;
}

export function useTranslator(): Translator {
  const translator = useContext(TranslatorContext);
  if (translator === null) throw new Error("useTranslator needs a <TranslatorProvider> above it");
  return translator;
}
