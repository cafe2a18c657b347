import { z } from "zod";

const configSchema = z.object({
  DEMO_HOST: z.string().min(1).default("127.0.0.1"),
  DEMO_PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  DEMO_PUBLIC_URL: z.url().default("http://localhost:4000"),
  PORTAL_PUBLIC_URL: z.url().default("http://localhost:3000"),
  KRATOS_PUBLIC_URL: z.url().default("http://127.0.0.1:4433"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export type DemoConfig = {
  host: string;
  port: number;
  publicUrl: string;
  portalUrl: string;
  identityPublicUrl: string;
  logLevel: string;
};

export function loadDemoConfig(env: Record<string, string | undefined>): DemoConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join(".")}: ${issue.message}`,
    );
    throw new Error(`Invalid demo-portal configuration:\n  ${problems.join("\n  ")}`);
  }
  const c = parsed.data;
  return {
    host: c.DEMO_HOST,
    port: c.DEMO_PORT,
    publicUrl: c.DEMO_PUBLIC_URL.replace(/\/$/, ""),
    portalUrl: c.PORTAL_PUBLIC_URL.replace(/\/$/, ""),
    identityPublicUrl: c.KRATOS_PUBLIC_URL.replace(/\/$/, ""),
    logLevel: c.LOG_LEVEL,
  };
}
