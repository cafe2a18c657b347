import { buildDemoPortal } from "./app.ts";
import { loadDemoConfig } from "./config.ts";

const config = loadDemoConfig(process.env);
const app = buildDemoPortal(config);
await app.listen({ host: config.host, port: config.port });
app.log.info(
  { url: config.publicUrl, issuer: config.oidc.issuer, clientId: config.oidc.clientId },
  "demo portal (agency product stand-in) ready",
);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}
