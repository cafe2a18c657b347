import { createContext, useContext } from "react";
import type { Theme } from "./theme.ts";

export interface ThemeState {
  theme: Theme;
  setTheme: (theme: Theme) => void;
  cookieDomain: string | undefined;
}

export const ThemeContext = createContext<ThemeState | null>(null);

export function useTheme(): ThemeState {
  const state = useContext(ThemeContext);
  if (state === null) throw new Error("useTheme needs the root layout's ThemeContext");
  return state;
}
